package client

// LatestVersion is the revision mcpctl speaks first.
const LatestVersion = "2026-07-28"

// ModernVersions are the stateless revisions (per-request _meta, no
// handshake), preferred first.
var ModernVersions = []string{LatestVersion}

// LegacyVersions are the initialize-based revisions mcpctl also speaks,
// newest first; the first is what initialize asks for.
var LegacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// SupportedVersions lists every revision this build speaks, preferred
// first.
var SupportedVersions = append(append([]string(nil), ModernVersions...), LegacyVersions...)

// IsSupportedVersion reports whether v is a revision this build speaks.
func IsSupportedVersion(v string) bool { return contains(SupportedVersions, v) }

// IsLegacyVersion reports whether v is an initialize-based revision this
// build speaks.
func IsLegacyVersion(v string) bool { return contains(LegacyVersions, v) }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
