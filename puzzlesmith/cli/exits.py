"""The command's exit codes, apart from everything else so that the entry point can use them before any command
is loaded.

0 answered, 1 no solution, 2 bad input (or output that cannot be written), 3 unknown (a time or node limit stopped
the search, or `hardest` or `generate` lost its dask scheduler: the same command resumes), 4 an engine answered
something the independent checks reject (a bug to report), 130 interrupted (Ctrl-C).
"""

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_WRONG_ANSWER, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
