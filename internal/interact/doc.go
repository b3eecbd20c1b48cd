// Package interact is mcpctl's side of a server's questions, and what a
// person sees of a call while it runs: the Handler that answers input
// requests (elicitation forms and URLs, roots, sampling) from the answers
// given on the command line or at terminal prompts, the checks of a form's
// answers against its requested schema, what is shown of a URL before it
// is opened (and OpenURL, which opens it), and the Progress bar or JSON
// lines on stderr.
//
// It is given what it needs: a Config of answers read from the flags, the
// streams, the command's context and a way to open a browser; it reads no
// flags and no environment of its own.
package interact
