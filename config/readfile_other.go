//go:build !unix

package config

import "os"

// readLarge returns a file's bytes (see the unix version, which maps large
// files).
func readLarge(path string) ([]byte, func(), error) {
	data, err := os.ReadFile(path)
	return data, func() {}, err
}
