from puzzlesmith._command import run

run()
