#!/usr/bin/python3
"""A stand-in desktop notification server for the end-to-end tests.

It owns org.freedesktop.Notifications on the test's private session bus (as a desktop's
notification daemon does), answers what the app asks of one, and writes each notification it
is sent to the file named as its argument, one JSON line each, after a first line "ready" once
the name is owned. A click on a notification is the ActionInvoked signal, which a daemon sends
from its own connection: the test asks for one with the method org.porthole.E2E.Click (a
dbus-send of the signal itself comes from another connection, a forged click). Runs with
Debian's python3 (python3-dbus, python3-gi).
"""

import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, PATH)
        self.log = log
        self.last_id = 0

    def write(self, line):
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        self.last_id += 1
        self.write(json.dumps({
            "id": self.last_id,
            "app": str(app),
            "summary": str(summary),
            "body": str(body),
            "actions": [str(a) for a in actions],
        }))
        return self.last_id

    @dbus.service.method(NAME, out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body"]

    @dbus.service.method(NAME, out_signature="ssss")
    def GetServerInformation(self):
        return ("porthole-e2e", "porthole", "1", "1.2")

    @dbus.service.method(NAME, in_signature="u")
    def CloseNotification(self, notification_id):
        self.NotificationClosed(notification_id, 3)

    @dbus.service.method("org.porthole.E2E", in_signature="us")
    def Click(self, notification_id, action):
        self.ActionInvoked(notification_id, action)

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, notification_id, action):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = Server(bus, sys.argv[1])
    _name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    server.write("ready")
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
