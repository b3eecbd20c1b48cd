package client

// LatestVersion is the revision mcpctl speaks first.
const LatestVersion = "2026-07-28"

// SupportedVersions lists the revisions this build speaks, preferred first.
var SupportedVersions = []string{LatestVersion}

// IsSupportedVersion reports whether v is a revision this build speaks.
func IsSupportedVersion(v string) bool {
	for _, s := range SupportedVersions {
		if s == v {
			return true
		}
	}
	return false
}
