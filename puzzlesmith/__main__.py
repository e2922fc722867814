from ._command import run

run()
