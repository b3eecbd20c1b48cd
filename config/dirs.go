package config

import (
	"errors"
	"path/filepath"
)

// Dirs says where mcpctl keeps its files on this machine: the one place
// that knows (docs/config.md, "Where mcpctl keeps its files", has the table).
//
//	                 explicit               Linux, BSD and other Unix; macOS; Windows
//	config file      $MCPCTL_CONFIG         $XDG_CONFIG_HOME/mcpctl/config.yaml, else
//	                                        HOME/.config/mcpctl/config.yaml (every system)
//	cache            $MCPCTL_CACHE_DIR      the system's cache folder + mcpctl/results:
//	                                        $XDG_CACHE_HOME (absolute) or ~/.cache;
//	                                        macOS ~/Library/Caches; Windows %LocalAppData%
//	state            $MCPCTL_STATE_DIR      $XDG_STATE_HOME/mcpctl, else
//	                                        HOME/.local/state/mcpctl (every system)
//	runtime          $XDG_RUNTIME_DIR/mcpctl, else the state directory
//
// HOME is $HOME (%USERPROFILE% on Windows). The cache follows the system's
// convention because it is disposable; the config file and the state
// (tokens, the continuation key, tasks) are where they have always been on
// every system, so that nobody's setup moves. PlatformConfigDir is the
// system's own configuration folder, where other programs (Claude
// Desktop) keep theirs.
//
// Dirs reads the environment through Getenv only, so tests describe a
// machine without touching the process environment, and GOOS names the
// system (runtime.GOOS) so every system's rules can be tested anywhere.
type Dirs struct {
	Getenv func(string) string
	GOOS   string
}

// Home is the user's home folder, or "" when the environment names none.
func (d Dirs) Home() string {
	switch d.GOOS {
	case "windows":
		return d.Getenv("USERPROFILE")
	case "plan9":
		return d.Getenv("home")
	}
	if h := d.Getenv("HOME"); h != "" {
		return h
	}
	switch d.GOOS {
	case "android":
		return "/sdcard"
	case "ios":
		return "/"
	}
	return ""
}

// ConfigFile is mcpctl's own config file.
func (d Dirs) ConfigFile() string {
	if f := d.Getenv("MCPCTL_CONFIG"); f != "" {
		return f
	}
	dir := d.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		dir = filepath.Join(d.Home(), ".config")
	}
	return filepath.Join(dir, "mcpctl", "config.yaml")
}

// CacheDir is where cached results live (and, in its eras folder, the
// servers' remembered eras).
func (d Dirs) CacheDir() (string, error) {
	if dir := d.Getenv("MCPCTL_CACHE_DIR"); dir != "" {
		return dir, nil
	}
	base, err := d.systemCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "mcpctl", "results"), nil
}

// systemCacheDir is os.UserCacheDir with the environment from Getenv.
func (d Dirs) systemCacheDir() (string, error) {
	switch d.GOOS {
	case "windows":
		if dir := d.Getenv("LocalAppData"); dir != "" {
			return dir, nil
		}
		return "", errors.New("%LocalAppData% is not defined")
	case "darwin", "ios":
		if h := d.Getenv("HOME"); h != "" {
			return h + "/Library/Caches", nil
		}
		return "", errors.New("$HOME is not defined")
	case "plan9":
		if h := d.Getenv("home"); h != "" {
			return h + "/lib/cache", nil
		}
		return "", errors.New("$home is not defined")
	}
	if dir := d.Getenv("XDG_CACHE_HOME"); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", errors.New("path in $XDG_CACHE_HOME is relative")
		}
		return dir, nil
	}
	if h := d.Getenv("HOME"); h != "" {
		return h + "/.cache", nil
	}
	return "", errors.New("neither $XDG_CACHE_HOME nor $HOME are defined")
}

// StateDir is where what must outlive one run is kept: OAuth tokens, task
// records, the key that seals continuations, the project files the user
// trusts.
func (d Dirs) StateDir() (string, error) {
	if dir := d.Getenv("MCPCTL_STATE_DIR"); dir != "" {
		return dir, nil
	}
	if dir := d.Getenv("XDG_STATE_HOME"); dir != "" {
		return filepath.Join(dir, "mcpctl"), nil
	}
	home := d.Home()
	if home == "" {
		return "", errors.New("no state directory: set MCPCTL_STATE_DIR or XDG_STATE_HOME")
	}
	return filepath.Join(home, ".local", "state", "mcpctl"), nil
}

// TrustFile records the project files the user trusts (mcpctl config
// trust): in the state directory.
func (d Dirs) TrustFile() (string, error) {
	dir, err := d.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "trusted-projects.json"), nil
}

// RuntimeDir is where files that live as long as a login session belong
// (sockets): $XDG_RUNTIME_DIR/mcpctl, else the state directory.
func (d Dirs) RuntimeDir() (string, error) {
	if dir := d.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "mcpctl"), nil
	}
	return d.StateDir()
}

// PlatformConfigDir is the system's per-user configuration folder
// (os.UserConfigDir), or "" when the environment names none.
func (d Dirs) PlatformConfigDir() string {
	switch d.GOOS {
	case "windows":
		return d.Getenv("AppData")
	case "darwin", "ios":
		if h := d.Getenv("HOME"); h != "" {
			return h + "/Library/Application Support"
		}
		return ""
	case "plan9":
		if h := d.Getenv("home"); h != "" {
			return h + "/lib"
		}
		return ""
	}
	if dir := d.Getenv("XDG_CONFIG_HOME"); dir != "" {
		if !filepath.IsAbs(dir) {
			return ""
		}
		return dir
	}
	if h := d.Getenv("HOME"); h != "" {
		return h + "/.config"
	}
	return ""
}
