package interact

// A prompt at the terminal waits for a person, and nothing else may wait
// for them in silence: Ctrl-C and SIGTERM end it (exit 130, as anywhere
// in mcpctl), and so does the deadline of --timeout when it was given
// (flag, MCPCTL_TIMEOUT or a config file): given, it bounds the command
// as a whole, counted from its start, and a prompt unanswered by then
// ends it (requests keep their own --timeout each). A prompt has no
// timeout of its own, so the
// default --timeout never ends someone's typing; nor does a legacy
// server's request time out while its question is being answered
// (client.HoldTimeouts).

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// PromptTimeoutError ends a prompt nobody answered before the deadline of
// an explicit --timeout. It is a timeout (exit 3).
type PromptTimeoutError struct{ After time.Duration }

func (e *PromptTimeoutError) Error() string {
	return fmt.Sprintf("nobody answered the prompt within --timeout %s of the command's start", e.After)
}

func (e *PromptTimeoutError) Unwrap() []error {
	return []error{&client.TimeoutError{Method: "the prompt", After: e.After.String()}, context.DeadlineExceeded}
}

// atPrompt runs ask, a prompt: one at a time, with the progress bar
// suspended and the client told that a person is answering, ending when
// the command is interrupted or runs out of --timeout.
func (h *Handler) atPrompt(ctx context.Context, ask func(ctx context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	h.prompt.ask.Lock()
	defer h.prompt.ask.Unlock()
	defer h.progress.suspend()()
	defer client.HoldTimeouts(ctx)()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(h.base, func() { cancel(context.Cause(h.base)) })()
	if !h.deadline.IsZero() {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadlineCause(ctx, h.deadline, &PromptTimeoutError{After: h.timeout})
		defer stop()
	}
	return ask(ctx)
}

// Abandon ends the line of a prompt still waiting when the command ends
// for another reason (the request it answers for was interrupted).
func (h *Handler) Abandon() {
	if h != nil && h.prompt != nil {
		h.prompt.endLine()
	}
}
