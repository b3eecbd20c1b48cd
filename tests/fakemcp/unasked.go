package fakemcp

// legacyunasked (issue 24, item 7): a legacy server that, once
// initialized, asks the client things with no request of the client's in
// flight: a model completion five times, then a form, then its roots.
// Each answer is logged on stderr ("fakemcp: unasked METHOD: ANSWER"),
// then "fakemcp: unasked done".

import "fmt"

const unaskedMode = "legacyunasked"

// unasked starts the questions when the client says it is initialized.
func (l *legacySession) unasked(notification string) {
	if l.srv.mode != unaskedMode || notification != "notifications/initialized" {
		return
	}
	go func() {
		questions := []struct{ method, params string }{
			{"elicitation/create", `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`},
			{"roots/list", `{}`},
		}
		for i := range 5 {
			sample := fmt.Sprintf(`{"messages":[{"role":"user","content":{"type":"text","text":"unasked %d"}}],"maxTokens":10}`, i)
			questions = append([]struct{ method, params string }{{"sampling/createMessage", sample}}, questions...)
		}
		for _, q := range questions {
			answer, err := l.ask(q.method, q.params, l.notify)
			if err != nil {
				l.logf("fakemcp: unasked %s: %v", q.method, err)
				continue
			}
			l.logf("fakemcp: unasked %s: %s", q.method, compact(answer))
		}
		l.logf("fakemcp: unasked done")
	}()
}
