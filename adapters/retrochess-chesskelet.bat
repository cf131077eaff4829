@echo off
rem Launcher for Windows GUIs (Arena, WinBoard, cutechess): runs chesskelet, protocol detected from the first line.
rem Runs the retrochess.exe beside this file from any working directory, else the one on PATH.
if not exist "%~dp0retrochess.exe" goto path
"%~dp0retrochess.exe" --engine chesskelet %*
exit /b %errorlevel%
:path
retrochess.exe --engine chesskelet %*
