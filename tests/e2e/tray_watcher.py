#!/usr/bin/python3
"""A stand-in system tray for the end-to-end tests.

Desktops that show tray icons (KDE, GNOME with its AppIndicator extension, most panels) run a
StatusNotifierWatcher: an app's tray icon registers with it over the session bus and exports
its menu there (com.canonical.dbusmenu). This script owns org.kde.StatusNotifierWatcher on the
test's private session bus and writes each registration to the file named as its argument, one
JSON line each ({"service": bus name, "path": object path}), after a first line "ready". The
test then reads the menu and clicks its entries over D-Bus, as a panel does. Runs with Debian's
python3 (python3-dbus, python3-gi).
"""

import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.kde.StatusNotifierWatcher"
PATH = "/StatusNotifierWatcher"
PROPS = "org.freedesktop.DBus.Properties"


class Watcher(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, PATH)
        self.log = log
        self.items = []

    def write(self, line):
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    @dbus.service.method(NAME, in_signature="s", out_signature="", sender_keyword="sender")
    def RegisterStatusNotifierItem(self, service, sender=None):
        # An item names its object path (libayatana-appindicator) or its bus name.
        path = str(service) if str(service).startswith("/") else "/StatusNotifierItem"
        owner = str(sender) if str(service).startswith("/") else str(service)
        self.items.append(f"{owner}{path}")
        self.write(json.dumps({"service": owner, "path": path}))
        self.StatusNotifierItemRegistered(f"{owner}{path}")

    @dbus.service.method(NAME, in_signature="s", out_signature="")
    def RegisterStatusNotifierHost(self, service):
        pass

    @dbus.service.signal(NAME, signature="s")
    def StatusNotifierItemRegistered(self, item):
        pass

    @dbus.service.signal(NAME, signature="")
    def StatusNotifierHostRegistered(self):
        pass

    def props(self):
        return {
            "RegisteredStatusNotifierItems": dbus.Array(self.items, signature="s"),
            "IsStatusNotifierHostRegistered": dbus.Boolean(True),
            "ProtocolVersion": dbus.Int32(0),
        }

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.props()[str(name)]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.props()


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    watcher = Watcher(bus, sys.argv[1])
    _name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    watcher.write("ready")
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
