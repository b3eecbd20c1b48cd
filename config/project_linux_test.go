package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The walk does not leave the working directory's file system.
func TestProjectWalkStopsAtDevice(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a file system")
	}
	dir := writeFiles(t, t.TempDir(), map[string]string{".mcp.json": `{"mcpServers": {"outside": {"command": "x"}}}`})
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(mnt, 0) })
	writeFiles(t, mnt, map[string]string{"proj/.keep": ""})
	o := Options{Foreign: true, Cwd: filepath.Join(mnt, "proj"), TrustAll: true}
	if set := mustLoad(t, o); len(set.Every()) != 0 {
		t.Errorf("read across the mount: %v", set.Names())
	}
	// The same walk without the mount point between finds it.
	o.Cwd = dir
	if set := mustLoad(t, o); len(set.Servers) != 1 {
		t.Errorf("the file itself: %v", set.Names())
	}
}
