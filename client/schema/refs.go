package schema

import (
	"net/url"
	"strconv"
	"strings"
)

// docURL is the base URI of the inputSchema document when it has no `$id`.
// A private scheme can name no file or host, and relative refs resolve
// against it to URLs that are plainly not in the document.
const docURL = "inputschema:///inputSchema.json"

// joinURL resolves ref against base (RFC 3986; a reference without a
// scheme keeps an opaque base such as urn:example:tool): it returns the
// absolute URL without fragment and the decoded fragment.
func joinURL(base, ref string) (string, string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	refPart, frag, _ := strings.Cut(ref, "#")
	frag, err = url.PathUnescape(frag)
	if err != nil {
		return "", "", err
	}
	r, err := url.Parse(refPart)
	if err != nil {
		return "", "", err
	}
	res := b.ResolveReference(r)
	if !r.IsAbs() && b.Opaque != "" {
		res.Opaque = b.Opaque
	}
	return res.String(), frag, nil
}

// unresolvedRef is a $ref mcpctl will not follow.
type unresolvedRef struct {
	ref     string // as written in the schema
	url     string // absolute form (with fragment)
	missing bool   // points into this document, at nothing
}

func (u unresolvedRef) describe() string {
	if u.missing {
		return u.ref + ", which does not exist in the schema"
	}
	return u.url + ", which is not fetched"
}

func itoa(i int) string { return strconv.Itoa(i) }
