"""minebot's screen side: capture, board location, cell recognition, mouse and the play loop.

The screen packages (mss, OpenCV, pyautogui) are imported lazily by the modules that need them,
so ``minebot solve`` and ``minebot bench`` run on a machine with no display.
"""
