@echo off
rem Launcher for Windows GUIs (Arena, WinBoard): runs 1k-zx-chess, protocol detected from the first line.
retrochess.exe --engine 1k-zx-chess %*
