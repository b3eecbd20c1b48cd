package commands

// Placeholders until the terminal form prompter lands (form.go); removed then.

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
)

type formPrompter struct {
	in    *bufio.Reader
	out   io.Writer
	color bool
}

var errFormPending = errors.New("terminal forms are not available yet")

func (p *formPrompter) askForm(string, json.RawMessage) (json.RawMessage, error) {
	return nil, errFormPending
}

func (p *formPrompter) askURL(string, string, bool, func(string) error) (json.RawMessage, error) {
	return nil, errFormPending
}

func elicitDefaults(json.RawMessage) (json.RawMessage, error) { return nil, errFormPending }

func typeElicitValue(json.RawMessage, string, string) (json.RawMessage, error) {
	return nil, errFormPending
}

func checkElicitResult(json.RawMessage, json.RawMessage) error { return nil }

func parseRequestedSchema(json.RawMessage) (any, error) { return nil, nil }
