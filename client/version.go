package client

// LatestVersion is the revision this client speaks first.
const LatestVersion = "2026-07-28"

// modernVersions are the stateless revisions (per-request _meta, no
// handshake), preferred first.
var modernVersions = []string{LatestVersion}

// legacyVersions are the initialize-based revisions also spoken, newest
// first; the first is what initialize asks for.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

var supportedVersions = append(append([]string(nil), modernVersions...), legacyVersions...)

// SupportedVersions lists every revision this build speaks, preferred
// first (a copy: the caller may keep or change it).
func SupportedVersions() []string { return append([]string(nil), supportedVersions...) }

// LegacyVersions lists the initialize-based revisions this build speaks,
// newest first.
func LegacyVersions() []string { return append([]string(nil), legacyVersions...) }

// IsSupportedVersion reports whether v is a revision this build speaks.
func IsSupportedVersion(v string) bool { return contains(supportedVersions, v) }

// IsLegacyVersion reports whether v is an initialize-based revision this
// build speaks.
func IsLegacyVersion(v string) bool { return contains(legacyVersions, v) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
