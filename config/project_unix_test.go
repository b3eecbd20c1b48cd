//go:build unix

package config

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A project file is read only when it and the folders from the walk's
// start up to it are the user's alone: a file or folder its group or
// anyone may write is skipped with a warning naming it and why.
func TestProjectFileWritableByOthers(t *testing.T) {
	for _, tc := range []struct {
		name, chmod string
		mode        os.FileMode
		warning     string
	}{
		{"group-writable file", "proj/.mcp.json", 0o664, "FILE: not used: it is writable by its group (mode 0664)"},
		{"world-writable file", "proj/.mcp.json", 0o666, "FILE: not used: it is writable by anyone (mode 0666)"},
		{"open folder between", "proj/sub", 0o777, "FILE: not used: the folder DIR/proj/sub is writable by anyone (mode 0777)"},
		{"sticky folder holding it", "proj", 0o777 | os.ModeSticky, "FILE: not used: the folder DIR/proj is writable by anyone (mode 1777)"},
		{"group-writable .vscode", "proj/.vscode", 0o775, "DIR/proj/.vscode/mcp.json: not used: the folder DIR/proj/.vscode is writable by its group (mode 0775)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, file := project(t)
			o.TrustAll = true // not even so
			dir := filepath.Dir(filepath.Dir(file))
			writeFiles(t, dir, map[string]string{"proj/.vscode/mcp.json": `{"servers": {"code": {"command": "c"}}}`})
			if err := os.Chmod(filepath.Join(dir, tc.chmod), tc.mode); err != nil {
				t.Fatal(err)
			}
			set := mustLoad(t, o)
			want := strings.NewReplacer("FILE", file, "DIR", dir).Replace(tc.warning)
			var got []string
			for _, w := range set.Warnings {
				got = append(got, w.String())
			}
			if len(got) == 0 || got[0] != want {
				t.Errorf("warnings %q, want %q", got, want)
			}
			for _, s := range set.Every() {
				if filepath.Join(dir, tc.chmod) == s.Source.File || strings.HasPrefix(s.Source.File, filepath.Join(dir, tc.chmod)+"/") {
					t.Errorf("%s was read", s.Source.File)
				}
			}
			if gh, err := set.Lookup("github"); strings.Contains(want, ".mcp.json") && (err != nil || gh.Command != "users-own") {
				t.Errorf("github = %+v, %v", gh, err)
			}
			// Nor can it be trusted by name.
			var ue *UnsafeFileError
			target := file
			if strings.Contains(tc.chmod, "vscode") {
				target = filepath.Join(dir, "proj", ".vscode", "mcp.json")
			}
			if _, err := ReadProjectFile(target, o); tc.chmod != "proj/sub" && !errors.As(err, &ue) {
				t.Errorf("ReadProjectFile = %v", err)
			}
		})
	}
}

// Another user's file above the working directory, in a folder anyone
// may write (as /tmp): never read (git's CVE-2022-24765).
func TestProjectFileOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	o, file := project(t)
	o.TrustAll = true
	proj := filepath.Dir(file)
	if err := os.Chown(file, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	set := mustLoad(t, o)
	if len(set.Warnings) == 0 || set.Warnings[0].String() != file+": not used: it belongs to uid 65534, not to you or root" {
		t.Errorf("warnings: %v", set.Warnings)
	}
	if gh, err := set.Lookup("github"); err != nil || gh.Command != "users-own" {
		t.Errorf("github = %+v, %v", gh, err)
	}
	// A folder of another user's between: the same.
	_ = os.Chown(file, 0, 0)
	if err := os.Chown(filepath.Join(proj, "sub"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	set = mustLoad(t, o)
	if len(set.Warnings) == 0 || !strings.HasSuffix(set.Warnings[0].String(), "not used: the folder "+filepath.Join(proj, "sub")+" belongs to uid 65534, not to you or root") {
		t.Errorf("warnings: %v", set.Warnings)
	}
	// A file written by another user (a process of theirs).
	_ = os.Chown(filepath.Join(proj, "sub"), 0, 0)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(proj, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(filepath.Dir(proj), 0o755)
	_ = os.Chmod(filepath.Dir(filepath.Dir(proj)), 0o755)
	write := exec.Command("/bin/sh", "-c", `echo '{"mcpServers": {"only": {"command": "theirs"}}}' > "$1"`, "sh", file)
	write.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	set = mustLoad(t, o)
	if _, err := set.Lookup("only"); err == nil || len(set.Warnings) == 0 || !strings.Contains(set.Warnings[0].String(), "belongs to uid 65534") {
		t.Errorf("only: %v; warnings %v", err, set.Warnings)
	}
}
