//go:build !((dragonfly && cgo) || (freebsd && cgo) || linux || netbsd || openbsd)

package oauth

import (
	"runtime"

	"github.com/zalando/go-keyring"
)

// keychainPresent says whether the system has a keychain go-keyring can
// use: macOS and Windows do; other systems have none it knows.
func keychainPresent() error {
	switch runtime.GOOS {
	case "darwin", "windows":
		return nil
	}
	return keyring.ErrUnsupportedPlatform
}
