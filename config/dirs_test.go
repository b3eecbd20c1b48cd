package config

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// machine is a machine's environment for Dirs.
func machine(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDirsPerSystem(t *testing.T) {
	j := filepath.Join
	tests := []struct {
		name, goos string
		getenv     func(string) string
		config     string
		cache      string
		state      string
		runtime    string
		platform   string
	}{
		{"linux defaults", "linux", machine("HOME", "/h"),
			j("/h", ".config", "mcpctl", "config.yaml"), j("/h/.cache", "mcpctl", "results"), j("/h", ".local", "state", "mcpctl"),
			j("/h", ".local", "state", "mcpctl"), "/h/.config"},
		{"linux XDG", "linux", machine("HOME", "/h", "XDG_CONFIG_HOME", "/c", "XDG_CACHE_HOME", "/k", "XDG_STATE_HOME", "/s", "XDG_RUNTIME_DIR", "/run/user/1"),
			j("/c", "mcpctl", "config.yaml"), j("/k", "mcpctl", "results"), j("/s", "mcpctl"), j("/run/user/1", "mcpctl"), "/c"},
		{"explicit wins", "linux", machine("HOME", "/h", "XDG_CACHE_HOME", "/k", "MCPCTL_CONFIG", "/x/c.yaml", "MCPCTL_CACHE_DIR", "/x/cache", "MCPCTL_STATE_DIR", "/x/state"),
			"/x/c.yaml", "/x/cache", "/x/state", "/x/state", "/h/.config"},
		{"freebsd is XDG too", "freebsd", machine("HOME", "/h", "XDG_CACHE_HOME", "/k"),
			j("/h", ".config", "mcpctl", "config.yaml"), j("/k", "mcpctl", "results"), j("/h", ".local", "state", "mcpctl"),
			j("/h", ".local", "state", "mcpctl"), "/h/.config"},
		{"macOS", "darwin", machine("HOME", "/Users/a", "XDG_CACHE_HOME", "/ignored"),
			j("/Users/a", ".config", "mcpctl", "config.yaml"), j("/Users/a/Library/Caches", "mcpctl", "results"),
			j("/Users/a", ".local", "state", "mcpctl"), j("/Users/a", ".local", "state", "mcpctl"), "/Users/a/Library/Application Support"},
		{"Windows", "windows", machine("USERPROFILE", `C:\Users\a`, "LocalAppData", `C:\Users\a\AppData\Local`, "AppData", `C:\Users\a\AppData\Roaming`, "HOME", "/ignored"),
			j(`C:\Users\a`, ".config", "mcpctl", "config.yaml"), j(`C:\Users\a\AppData\Local`, "mcpctl", "results"),
			j(`C:\Users\a`, ".local", "state", "mcpctl"), j(`C:\Users\a`, ".local", "state", "mcpctl"), `C:\Users\a\AppData\Roaming`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Dirs{Getenv: tc.getenv, GOOS: tc.goos}
			if got := d.ConfigFile(); got != tc.config {
				t.Errorf("ConfigFile = %q, want %q", got, tc.config)
			}
			if got, err := d.CacheDir(); got != tc.cache || err != nil {
				t.Errorf("CacheDir = %q, %v; want %q", got, err, tc.cache)
			}
			if got, err := d.StateDir(); got != tc.state || err != nil {
				t.Errorf("StateDir = %q, %v; want %q", got, err, tc.state)
			}
			if got, err := d.RuntimeDir(); got != tc.runtime || err != nil {
				t.Errorf("RuntimeDir = %q, %v; want %q", got, err, tc.runtime)
			}
			if got := d.PlatformConfigDir(); got != tc.platform {
				t.Errorf("PlatformConfigDir = %q, want %q", got, tc.platform)
			}
		})
	}
}

func TestDirsWithoutHome(t *testing.T) {
	d := Dirs{Getenv: machine(), GOOS: "linux"}
	if _, err := d.CacheDir(); err == nil || err.Error() != "neither $XDG_CACHE_HOME nor $HOME are defined" {
		t.Errorf("CacheDir error %v", err)
	}
	if _, err := d.StateDir(); err == nil || err.Error() != "no state directory: set MCPCTL_STATE_DIR or XDG_STATE_HOME" {
		t.Errorf("StateDir error %v", err)
	}
	if _, err := (Dirs{Getenv: machine("XDG_CACHE_HOME", "rel"), GOOS: "linux"}).CacheDir(); err == nil {
		t.Error("a relative $XDG_CACHE_HOME was accepted")
	}
	if got := (Dirs{Getenv: machine("XDG_CONFIG_HOME", "rel"), GOOS: "linux"}).PlatformConfigDir(); got != "" {
		t.Errorf("PlatformConfigDir with a relative $XDG_CONFIG_HOME = %q", got)
	}
}

// On this machine, with its real environment (read, not changed), Dirs
// agrees with the standard library it replaces.
func TestDirsMatchStandardLibrary(t *testing.T) {
	d := Dirs{Getenv: os.Getenv, GOOS: runtime.GOOS}
	if want, err := os.UserCacheDir(); err == nil && os.Getenv("MCPCTL_CACHE_DIR") == "" {
		if got, _ := d.CacheDir(); got != filepath.Join(want, "mcpctl", "results") {
			t.Errorf("CacheDir = %q, os.UserCacheDir = %q", got, want)
		}
	}
	want, _ := os.UserConfigDir()
	if got := d.PlatformConfigDir(); got != want {
		t.Errorf("PlatformConfigDir = %q, os.UserConfigDir = %q", got, want)
	}
	home, _ := os.UserHomeDir()
	if got := d.Home(); got != home {
		t.Errorf("Home = %q, os.UserHomeDir = %q", got, home)
	}
}
