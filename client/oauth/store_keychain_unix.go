//go:build (dragonfly && cgo) || (freebsd && cgo) || linux || netbsd || openbsd

package oauth

import (
	"errors"
	"slices"

	"github.com/godbus/dbus/v5"
)

const secretServiceName = "org.freedesktop.secrets"

// keychainPresent says whether a Secret Service can answer here: a D-Bus
// session bus on which its name is owned or can be started. Its error is
// why not (no session bus on a headless machine, say).
//
// It never starts a bus: where no session bus address is found, dbus's
// SessionBus would run dbus-launch, whose daemon outlives this process.
// Only once a bus is found here does go-keyring use SessionBus, which
// then finds it too.
func keychainPresent() error {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.Auth(nil); err != nil {
		return err
	}
	if err := conn.Hello(); err != nil {
		return err
	}
	var owned bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, secretServiceName).Store(&owned); err != nil {
		return err
	}
	if owned {
		return nil
	}
	var names []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListActivatableNames", 0).Store(&names); err != nil {
		return err
	}
	if slices.Contains(names, secretServiceName) {
		return nil
	}
	return errors.New("no Secret Service (" + secretServiceName + ") on the D-Bus session bus")
}
