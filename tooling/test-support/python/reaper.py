"""Runs a command so that it, and everything it starts, ends with the process that started it.

    python3 -S reaper.py exec <parent-pid> -- <command> [<arg>...]
    python3 -S reaper.py tree <parent-fd> <grace-seconds> -- <command> [<arg>...]

``exec`` becomes the command (same process id) after asking the kernel to send it SIGKILL when
its parent dies (``PR_SET_PDEATHSIG``): for a command that starts nothing of its own, or whose
children end with it by themselves. ``tree`` stays as the command's parent: the parent holds the other end of the pipe ``<parent-fd>`` and never writes: when it dies, even
by SIGKILL, the kernel closes its end and a read here returns EOF at once. The reaper then ends
every process below it: SIGTERM, and SIGKILL to what is left after ``<grace-seconds>``. It is a
child subreaper (``PR_SET_CHILD_SUBREAPER``), so orphans of the command (``xvfb-run``'s X server,
a daemon that forked away) become its children and are found too; the command itself gets
SIGKILL if the reaper dies first (``PR_SET_PDEATHSIG``). When the command exits, whatever it left
running is ended the same way, and the reaper exits as the command did (the same code, or the
same signal). SIGTERM, SIGINT and SIGHUP sent to the reaper are passed on to the command.
Linux only; the standard library only.
"""

import ctypes
import os
import select
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def prctl(option, value):
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def live_descendants(root):
    """The ids of the live (not zombie) processes below ``root``, from /proc."""
    parents = {}
    states = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as stat_file:
                stat = stat_file.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
            parents[int(name)] = int(fields[1])
            states[int(name)] = fields[0]
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    found = []
    queue = [root]
    while queue:
        parent = queue.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                queue.append(pid)
                if states.get(pid) != b"Z":
                    found.append(pid)
    return found


def reap(main_pid):
    """Collects exited children; returns the main command's status if it was among them."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == main_pid:
            status = code


def end_all(grace, main_pid):
    """SIGTERM to every process below this one, SIGKILL to what is left after ``grace``. Each
    look sends the signal again to what appeared since (``xvfb-run`` may start another X server
    while it is being ended, and a process forked between a look and the signal escapes it)."""
    me = os.getpid()
    termed = set()
    started = time.monotonic()
    while True:
        reap(main_pid)
        alive = live_descendants(me)
        if not alive:
            return
        waited = time.monotonic() - started
        if waited >= grace + 5.0:
            return
        killing = waited >= grace
        for pid in alive:
            if killing or pid not in termed:
                try:
                    os.kill(pid, signal.SIGKILL if killing else signal.SIGTERM)
                except OSError:
                    pass
                termed.add(pid)
        time.sleep(0.05)


def exit_like(status):
    if status is None:
        os._exit(0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def run_exec(parent_pid, command):
    """Becomes ``command``, killed by the kernel when the parent dies."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)  # the parent died before the death signal was armed
    try:
        os.execvp(command[0], command)
    except OSError as error:
        sys.stderr.write("reaper.py: cannot run %s: %s\n" % (command[0], error))
    os._exit(127)


USAGE = """usage: reaper.py exec <parent-pid> -- <command> [<arg>...]
       reaper.py tree <parent-fd> <grace-seconds> -- <command> [<arg>...]
"""


def main(argv):
    if len(argv) >= 5 and argv[1] == "exec" and argv[3] == "--":
        run_exec(int(argv[2]), argv[4:])
    if len(argv) < 6 or argv[1] != "tree" or argv[4] != "--":
        sys.stderr.write(USAGE)
        return 2
    parent_fd = int(argv[2])
    grace = float(argv[3])
    command = argv[5:]
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    received = []
    for sig in FORWARDED + (signal.SIGCHLD,):
        signal.signal(sig, lambda signum, frame: received.append(signum))
    me = os.getpid()
    main_pid = os.fork()
    if main_pid == 0:
        signal.set_wakeup_fd(-1)
        for sig in FORWARDED + (signal.SIGCHLD,):
            signal.signal(sig, signal.SIG_DFL)
        for fd in (parent_fd, wake_read, wake_write):
            os.close(fd)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != me:
            os._exit(1)  # the reaper died before the death signal was armed
        try:
            os.execvp(command[0], command)
        except OSError as error:
            sys.stderr.write("reaper.py: cannot run %s: %s\n" % (command[0], error))
        os._exit(127)
    while True:
        status = reap(main_pid)
        if status is not None:
            # The command ended: end what it left behind, then exit as it did.
            end_all(grace, main_pid)
            exit_like(status)
        while received:
            sig = received.pop(0)
            if sig in FORWARDED:
                try:
                    os.kill(main_pid, sig)
                except OSError:
                    pass
        try:
            readable, _, _ = select.select([parent_fd, wake_read], [], [])
        except InterruptedError:
            continue
        if wake_read in readable:
            os.read(wake_read, 4096)
        if parent_fd in readable:
            try:
                data = os.read(parent_fd, 4096)
            except OSError:
                data = b""
            if not data:
                # The parent is gone: nobody will wait for the command or what it started.
                end_all(grace, main_pid)
                os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
