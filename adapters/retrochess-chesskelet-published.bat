@echo off
rem Launcher for Windows GUIs (Arena, WinBoard): runs chesskelet-published, protocol detected from the first line.
retrochess.exe --engine chesskelet-published %*
