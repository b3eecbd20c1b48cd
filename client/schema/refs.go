package schema

import (
	"net/url"
	"strconv"
	"strings"
)

// docURL is the URI under which the inputSchema document is registered with
// the library. A private scheme guarantees no loader could ever map it to a
// file or a host, and relative refs resolve against it to URLs that are
// plainly not in the document.
const docURL = "mcpctl:///inputSchema.json"

// joinURL resolves ref against base exactly like jsonschema/v6 does
// (url.join): it returns the absolute URL without fragment and the decoded
// fragment. Matching the library matters: a ref we call local must be one
// the library resolves without its loader, and vice versa.
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

// fragmentURL builds "docURL#ptr" with the pointer percent-encoded per token
// the way the library prints schema locations.
func fragmentURL(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return docURL + "#" + strings.Join(toks, "/")
}

// ptrFromLocation turns a library schema location ("docURL#/a/b") back into
// a JSON pointer inside our document; ok is false for other documents.
func ptrFromLocation(loc string) (string, bool) {
	u, frag, _ := strings.Cut(loc, "#")
	if u != docURL {
		return "", false
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		return "", false
	}
	return p, true
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
	return u.url + ", which mcpctl does not fetch"
}

func itoa(i int) string { return strconv.Itoa(i) }
