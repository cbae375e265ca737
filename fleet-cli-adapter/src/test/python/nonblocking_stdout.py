"""Runs a command whose stdout is a pipe made non-blocking and full, as a Node parent's inherited stdout is.

The pipe is filled to within ROOM bytes before the command starts, and read only after PAUSE seconds: until
then each write the command makes beyond ROOM is refused with EAGAIN. Then everything is read; what the
command wrote (the filler dropped) goes to this script's stdout, and its exit code is this script's.

    python3 nonblocking_stdout.py PAUSE COMMAND [ARGUMENT...]
"""
import fcntl
import os
import subprocess
import sys
import time

ROOM = 100

pause = float(sys.argv[1])
read_end, write_end = os.pipe()
fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
filler = 0
try:
    while True:
        filler += os.write(write_end, b"f" * 1024)
except BlockingIOError:
    pass
filler -= len(os.read(read_end, ROOM))
child = subprocess.Popen(sys.argv[2:], stdout=write_end, stdin=subprocess.DEVNULL)
os.close(write_end)
time.sleep(pause)
chunks = []
while True:
    chunk = os.read(read_end, 65536)
    if not chunk:
        break
    chunks.append(chunk)
sys.stdout.buffer.write(b"".join(chunks)[filler:])
sys.stdout.flush()
sys.exit(child.wait())
