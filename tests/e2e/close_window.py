#!/usr/bin/python3
"""Asks an X11 window to close, as a window manager does when its close button is pressed.

A window manager does not destroy a window whose WM_PROTOCOLS lists WM_DELETE_WINDOW: it sends
the window a WM_PROTOCOLS client message carrying WM_DELETE_WINDOW, and the app decides (GTK
turns it into the window's delete-event, Tauri into WindowEvent::CloseRequested). The tests run
under Xvfb with no window manager, so this script sends that message itself. (`xdotool
windowclose` is no stand-in: it destroys the window, which no close button does.)

Usage: close_window.py find TITLE_RE prints the id of each top-level window whose title matches
the regular expression and that takes WM_DELETE_WINDOW, one a line (`xdotool search` matches
titles regardless of case, and the app's tray-icon helper window is named "porthole");
close_window.py close WINDOW_ID sends it the message, and exits 2 when the window does not take
WM_DELETE_WINDOW. Needs only libX11 (through ctypes), which the app's GTK already pulls in.
"""

import ctypes
import ctypes.util
import re
import sys

CLIENT_MESSAGE = 33
NO_EVENT_MASK = 0


class ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class Event(ctypes.Union):
    # XEvent is a union padded to 24 longs.
    _fields_ = [("client", ClientMessage), ("pad", ctypes.c_long * 24)]


def xlib():
    x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XQueryTree.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
        ctypes.POINTER(ctypes.c_uint),
    ]
    x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
    x.XGetWMProtocols.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
        ctypes.POINTER(ctypes.c_int),
    ]
    x.XSendEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_long,
        ctypes.POINTER(Event),
    ]
    x.XFlush.argtypes = [ctypes.c_void_p]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return x


def takes_delete(x, display, window):
    """Whether the window's WM_PROTOCOLS lists WM_DELETE_WINDOW, as a window manager checks."""
    delete = x.XInternAtom(display, b"WM_DELETE_WINDOW", False)
    listed = ctypes.POINTER(ctypes.c_ulong)()
    count = ctypes.c_int(0)
    if not x.XGetWMProtocols(display, window, ctypes.byref(listed), ctypes.byref(count)):
        return False
    return delete in [listed[i] for i in range(count.value)]


def find(x, display, title):
    root = x.XDefaultRootWindow(display)
    root_out, parent = ctypes.c_ulong(), ctypes.c_ulong()
    children = ctypes.POINTER(ctypes.c_ulong)()
    count = ctypes.c_uint(0)
    x.XQueryTree(
        display,
        root,
        ctypes.byref(root_out),
        ctypes.byref(parent),
        ctypes.byref(children),
        ctypes.byref(count),
    )
    for i in range(count.value):
        window = children[i]
        name = ctypes.c_char_p()
        if not x.XFetchName(display, window, ctypes.byref(name)) or name.value is None:
            continue
        if re.fullmatch(title, name.value.decode("utf-8", "replace")) and takes_delete(
            x, display, window
        ):
            print(window)


def close(x, display, window):
    # A window that does not ask for WM_DELETE_WINDOW would not be sent it by a window manager.
    if not takes_delete(x, display, window):
        print(f"window {window:#x} does not take WM_DELETE_WINDOW", file=sys.stderr)
        sys.exit(2)
    event = Event()
    event.client.type = CLIENT_MESSAGE
    event.client.window = window
    event.client.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", False)
    event.client.format = 32
    event.client.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", False)
    event.client.data[1] = 0  # CurrentTime
    if not x.XSendEvent(display, window, False, NO_EVENT_MASK, ctypes.byref(event)):
        sys.exit("XSendEvent failed")
    x.XFlush(display)


def main():
    command, arg = sys.argv[1], sys.argv[2]
    x = xlib()
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("no X display")
    if command == "find":
        find(x, display, arg)
    elif command == "close":
        close(x, display, int(arg, 0))
    else:
        sys.exit(f"unknown command {command}")
    x.XCloseDisplay(display)


if __name__ == "__main__":
    main()
