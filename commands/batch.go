package commands

// mcpctl batch: many requests over one connection (one server process, one
// handshake). Each input line is a request, a JSON object {"method",
// "params"} or an mcpctl command line; each gets one JSON line out, in
// input order. A command line runs through the same command tree as on
// the shell (typing by schema, validation, exit codes), with a factory of
// its own whose streams are buffers and whose sessions borrow the batch's
// client (batchRun.session): one client holds the era, the handshake and
// the transport for every line.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kballard/go-shellquote"
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/secrets"
	"github.com/mcpctl/mcpctl/output"
)

type batchOptions struct {
	invocation
	File     string // "" or "-": stdin
	Parallel int
	FailFast bool
}

// maxParallel bounds -P: each request in flight holds its line and its
// result until it is printed in turn.
const maxParallel = 1024

func newCmdBatch(f *Factory, runF func(*batchOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "batch",
		Usage:     "send many requests over one connection: one per line of stdin or FILE, one JSON line out for each",
		ArgsUsage: "[FILE | -]",
		Description: "Each line is a JSON object {\"method\": \"tools/call\", \"params\": {…}} (sent as 'mcpctl call'\n" +
			"sends it, _meta added) or an mcpctl command line without 'mcpctl' (tools call get-sum a=1 b=2,\n" +
			"quoted as a shell would), run against the batch's one server. Blank lines and lines starting\n" +
			"with # are skipped. Each request line prints one JSON line, in input order:\n" +
			"  {\"line\": N, \"result\": {…}}\n" +
			"  {\"line\": N, \"error\": {\"exit\": 4, \"code\": -32602, \"message\": \"…\"}}\n" +
			"N is the line's number in the input. The error object has \"exit\" (the exit code the line\n" +
			"would have on its own), \"code\" and \"data\" for a JSON-RPC error, \"result\" for a tool that\n" +
			"answered isError (exit 1) and \"continuation\" for input that could not be given (exit 6).\n" +
			"Server flags, --timeout, --answer/--answers and the like go before 'batch' and hold for\n" +
			"every line; a line that gives a global flag fails with exit 2, as does a line that does\n" +
			"not parse or is not a request (config, listen, batch…). Exit status: 0 when every line\n" +
			"succeeded, else the first failing line's.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "parallel", Aliases: []string{"P"}, Value: 1, Usage: "keep up to `N` requests in flight on the connection (output stays in input order)"},
			&cli.BoolFlag{Name: "fail-fast", Usage: "stop reading at the first line that fails; lines already sent finish and are printed"},
		},
		Action: actionOf(func(c *cli.Context) (*batchOptions, error) {
			if err := needArgs(c, 0, 1, "[FILE | -] [-P N] [--fail-fast]"); err != nil {
				return nil, err
			}
			p := c.Int("parallel")
			if p < 1 || p > maxParallel {
				return nil, usagef("invalid -P %d: give a number of requests in flight from 1 to %d", p, maxParallel)
			}
			return &batchOptions{invocation: invoked(f, c), File: c.Args().First(), Parallel: p, FailFast: c.Bool("fail-fast")}, nil
		}, runF, runBatch),
	}
}

func runBatch(o *batchOptions) error {
	fromStdin := o.File == "" || o.File == "-"
	if o.Globals.DryRun {
		return usagef("batch does not take --dry-run: show one line's requests with 'mcpctl --dry-run LINE'")
	}
	if o.Globals.JQ != "" {
		return usagef("batch prints JSON lines, one per request: filter them with jq, not --jq")
	}
	if fromStdin && o.Globals.Answers == "-" {
		return usagef("--answers - and the batch both read stdin: give the batch a FILE, or --answers FILE")
	}
	var in io.Reader = o.IO.In
	if !fromStdin {
		file, err := os.Open(o.f.expandHome(o.File))
		if err != nil {
			return usagef("cannot read the batch: %v", err)
		}
		defer file.Close()
		in = file
	}
	// A batch never prompts: its answers come from --answer, --answers and
	// --elicit, the same for every line; a line without one fails (exit 6).
	ios := *o.IO
	ios.SetStdinTTY(false)
	bf := *o.f
	bf.IOStreams = &ios
	conn, err := bf.connect(o.ctx(), o.Globals, ConnectOptions{})
	if err != nil {
		return err
	}
	defer conn.Close()
	s, ok := conn.(*connection)
	if !ok {
		return fmt.Errorf("batch lines share mcpctl's own connection, not a %T", conn)
	}
	s.input.PerLine()
	b := &batchRun{s: s, f: o.f, g: o.Globals, parallel: o.Parallel, failFast: o.FailFast}
	return b.run(o.ctx(), in)
}

// batchRun is one batch: the connection whose client every line borrows.
type batchRun struct {
	s        *connection
	f        *Factory       // the batch command's, for the lines' factories
	g        *GlobalOptions // the batch's, which hold for every line
	parallel int
	failFast bool
}

// batchLine is a request line on its way: run, then printed in turn.
type batchLine struct {
	n    int
	done chan struct{}
	out  []byte // the JSON line to print
	errs []byte // what the line wrote on stderr
	code int
}

// batchError ends a batch in which a line failed: its exit status is the
// first failing line's code.
type batchError struct {
	Code, First, Failed, Total int
}

// ExitCode is the first failing line's.
func (e *batchError) ExitCode() int { return e.Code }

func (e *batchError) Error() string {
	return fmt.Sprintf("batch: %d of %d lines failed; the first is line %d (exit %d)", e.Failed, e.Total, e.First, e.Code)
}

// run reads the lines, keeps up to b.parallel of them in flight and
// prints their results in input order. Memory is bounded by b.parallel
// lines and their results, whatever the length of the input.
func (b *batchRun) run(ctx context.Context, r io.Reader) error {
	lines, readErr, stopReading := readBatchLines(r, b.s.maxMessage)
	defer stopReading()
	slots := make(chan struct{}, b.parallel) // taken when a line starts, given back once it is printed
	queue := make(chan *batchLine, b.parallel)
	var stop atomic.Bool
	var fail batchError
	printed := make(chan struct{})
	// At a terminal each line is spelled as JSON is shown there, as
	// output.WriteJSONLine spells it; to a pipe it is the server's bytes.
	terminal := b.f.IOStreams.IsStdoutTTY()
	go func() {
		defer close(printed)
		for l := range queue {
			<-l.done
			if len(l.errs) > 0 {
				_, _ = b.f.IOStreams.ErrOut.Write(l.errs)
			}
			if terminal {
				l.out = output.EscapeJSONText(l.out)
			}
			_, _ = b.f.IOStreams.Out.Write(l.out)
			fail.Total++
			if l.code != ExitOK {
				if fail.Failed == 0 {
					fail.Code, fail.First = l.code, l.n
				}
				fail.Failed++
			}
			<-slots
		}
	}()
	var wg sync.WaitGroup
read:
	for !stop.Load() {
		var in rawLine
		var ok bool
		select {
		case in, ok = <-lines:
		case <-ctx.Done():
			break read
		}
		if !ok {
			break
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break read
		}
		if stop.Load() {
			<-slots
			break
		}
		l := &batchLine{n: in.n, done: make(chan struct{})}
		queue <- l
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(l.done)
			l.out, l.errs, l.code = b.runLine(ctx, &in)
			if l.code != ExitOK && (b.failFast || l.code == ExitInterrupted) {
				stop.Store(true)
			}
		}()
	}
	wg.Wait()
	close(queue)
	<-printed
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := readErr(); err != nil && fail.Failed == 0 {
		return usagef("cannot read the batch: %v", err)
	}
	if fail.Failed > 0 {
		return &fail
	}
	return nil
}

// rawLine is an input line with its number, or why it could not be read.
// text is the line as read, white space trimmed: never copied again on
// its way to the server (a JSON line's params are sent from it).
type rawLine struct {
	n       int
	text    []byte
	tooLong bool
}

// readBatchLines reads r line by line on a goroutine of its own (so that
// Ctrl-C ends a batch waiting for input), skipping blank lines and
// comments. A line longer than max is reported as too long, and skipped
// to its end without being kept.
func readBatchLines(r io.Reader, max int) (<-chan rawLine, func() error, func()) {
	out := make(chan rawLine)
	quit := make(chan struct{})
	var err error
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer close(out)
		br := bufio.NewReaderSize(r, 64<<10)
		for n := 1; ; n++ {
			text, tooLong, rerr := readLimitedLine(br, max)
			if rerr != nil && len(text) == 0 && !tooLong {
				if rerr != io.EOF {
					err = rerr
				}
				return
			}
			t := bytes.TrimSpace(text)
			if len(t) == 0 && !tooLong || len(t) > 0 && t[0] == '#' {
				continue
			}
			select {
			case out <- rawLine{n: n, text: t, tooLong: tooLong}:
			case <-quit:
				return
			}
			if rerr != nil {
				if rerr != io.EOF {
					err = rerr
				}
				return
			}
		}
	}()
	var once sync.Once
	stop := func() { once.Do(func() { close(quit) }) }
	readErr := func() error {
		select {
		case <-finished:
			return err
		default:
			return nil // stopped before the end
		}
	}
	return out, readErr, stop
}

// giveBackAbove is the size of a line from which its pieces are given back
// to the system as soon as the line is put together.
const giveBackAbove = 4 << 20

// readLimitedLine reads one line (without its end) of at most max bytes;
// a longer one is read to its end and dropped (tooLong), never held
// beyond max bytes. The line is gathered in the pieces the reader hands
// out and put together once, in a slice of its own size: a slice grown by
// appending would leave copies of every size behind on the way to a large
// line, several times its size in all.
func readLimitedLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var pieces [][]byte
	n := 0
	for {
		frag, ferr := br.ReadSlice('\n')
		if !tooLong {
			if max > 0 && n+len(frag) > max+2 { // the line end is not counted
				tooLong, pieces = true, nil
			} else if ferr == bufio.ErrBufferFull || len(pieces) > 0 {
				pieces = append(pieces, bytes.Clone(frag))
				n += len(frag)
			} else {
				line = bytes.Clone(frag) // a short line: one piece
			}
		}
		if ferr == bufio.ErrBufferFull {
			continue
		}
		if len(pieces) > 0 {
			line = make([]byte, 0, n)
			for _, p := range pieces {
				line = append(line, p...)
			}
			if n >= giveBackAbove {
				// The pieces are garbage now, in scattered pages that the
				// request built from the line cannot reuse: given back to
				// the system at once, they do not count a second time.
				pieces = nil
				debug.FreeOSMemory()
			}
		}
		line = bytes.TrimRight(line, "\r\n")
		if max > 0 && len(line) > max {
			tooLong, line = true, nil
		}
		if tooLong {
			line = nil
		}
		return line, tooLong, ferr
	}
}

// batchCommandList is the commands a batch line may run: those that send
// requests to the server (and tasks list, which reads what they started).
var batchCommandList = []string{"call", "complete", "discover", "ping", "prompts", "resources", "tasks", "tools"}

var batchCommandNames = strings.Join(batchCommandList, ", ")

// runLine runs one request line and returns its JSON line, what it wrote
// on stderr and its exit code. It is given the line's only reference: a
// command line lets go of the bytes once they are words.
func (b *batchRun) runLine(ctx context.Context, in *rawLine) (out, errs []byte, code int) {
	var stdout, stderr bytes.Buffer
	var printed []json.RawMessage
	lf := *b.f
	lf.IOStreams = &output.IOStreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr}
	lf.IOStreams.SetQuiet(b.g.Quiet) // a line's notes are the batch's
	lf.Connect = func(_ context.Context, _ *GlobalOptions, how ConnectOptions) (Connection, error) {
		return b.lineConnection(lf.IOStreams, how, &printed), nil
	}
	lctx := b.s.input.LineContext(ctx)
	var tool *string
	var err error
	switch {
	case in.tooLong:
		err = usagef("the line is longer than --max-message-size allows (%d bytes): raise it, or shorten the line", b.s.maxMessage)
	case in.text[0] == '{':
		// `call METHOD PARAMS`, run as that command runs, with params
		// taken where they lie in the line: not copied into a word.
		var o *callOptions
		if o, tool, err = jsonLineCall(in.text); err == nil {
			o.invocation = invocation{Ctx: lctx, IO: lf.IOStreams, Globals: b.g, f: &lf,
				Connect: func(ctx context.Context) (Connection, error) { return lf.Connect(ctx, b.g, ConnectOptions{}) }}
			err = runCall(o)
		}
	default:
		var words []string
		text := string(in.text)
		in.text = nil
		if words, err = lineWords(text); err == nil {
			app := newAppFor(&lf, words)
			err = checkBatchLine(app, words)
			// A line has no global flags (checkBatchLine refuses them:
			// its connection is the batch's, and so are its options),
			// and urfave checks each flag against every other on each
			// run, ≈ half the time of a line that pings.
			app.Flags, app.Before = nil, nil
			app.Metadata[globalsKey] = b.g
			if err == nil {
				err = execute(lctx, app, append([]string{"mcpctl"}, words...))
			}
		}
	}
	value, perr := lineValue(printed, stdout.Bytes())
	if err == nil {
		err = perr
	}
	if len(value) >= giveBackAbove {
		// What the answer was read in is garbage now, in pages the
		// result's line cannot reuse: given back first, it does not count
		// a second time.
		debug.FreeOSMemory()
	}
	out, code = batchResult(in.n, value, err, tool, b.f.secrets)
	return out, stderr.Bytes(), code
}

// lineWords splits a command line as a shell would.
func lineWords(text string) ([]string, error) {
	words, err := shellquote.Split(text)
	if err != nil {
		return nil, usagef("cannot split the line as a shell would: %v", err)
	}
	if len(words) > 0 && words[0] == "mcpctl" {
		words = words[1:] // a line copied from a shell
	}
	if len(words) == 0 {
		return nil, usagef("the line names no command: give a request (%s) or a JSON object", batchCommandNames)
	}
	return words, nil
}

// jsonLineCall reads a JSON request line: "method" and, optionally,
// "params" (an object); "jsonrpc" and "id" are allowed and ignored, as
// mcpctl numbers its requests itself. It is `call METHOD PARAMS`, params
// a slice of text. tool is set when the line calls a tool (tools/call),
// whose isError is then a failure, as for `tools call`.
func jsonLineCall(text []byte) (*callOptions, *string, error) {
	obj, err := argv.ParseObject("the line", text)
	if err != nil {
		return nil, nil, err
	}
	var method string
	if err := json.Unmarshal(obj.Get("method"), &method); err != nil || method == "" {
		return nil, nil, usagef(`the line's JSON object needs "method": a non-empty string, as in {"method": "tools/call", "params": {…}}`)
	}
	for _, k := range obj.Keys() {
		switch k {
		case "method", "params", "jsonrpc", "id":
		default:
			return nil, nil, usagef(`unknown key %q in the line's JSON object: a request has "method" and "params"`, k)
		}
	}
	p := obj.Get("params")
	o := &callOptions{Method: method, RawParams: p, HasParams: p != nil}
	if method != "tools/call" {
		return o, nil, nil
	}
	var named struct {
		Name string `json:"name"`
	}
	if fields, err := ojson.SplitObject(p); err == nil {
		_ = json.Unmarshal(fields.Get("name"), &named.Name)
	}
	return o, &named.Name, nil
}

// checkBatchLine refuses what a line may not do: name a server or give a
// global flag (the batch has one server and one set of options), run a
// command that is not a request, or ask for help.
func checkBatchLine(app *cli.App, words []string) error {
	l := argv.Scan(app, words, false)
	if l.Bare != "" {
		return usagef("a batch line cannot name a server (%q): the batch's server is named before 'batch'", l.Bare)
	}
	if len(l.Front) > 0 {
		return usagef("%s is a global flag: give it before 'batch', where it holds for every line", l.Front[0])
	}
	if len(l.Path) == 0 || !slices.Contains(batchCommandList, l.Path[0].Name) {
		if len(l.Path) > 0 {
			return usagef("%q is not a request: a batch line is a JSON object or one of %s", l.PathWords[0], batchCommandNames)
		}
		word := words[0]
		if len(l.Positional) > 0 {
			word = l.Positional[0]
		}
		msg := fmt.Sprintf("unknown command %q: a batch line is a JSON object or one of %s", word, batchCommandNames)
		if s := argv.Closest(word, batchCommandList, 2); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usagef("%s", msg)
	}
	for _, w := range l.Local {
		if name, _ := argv.SplitFlag(w); name == "h" || name == "help" {
			return usagef("a batch line cannot ask for help: run 'mcpctl %s --help'", strings.Join(l.PathWords, " "))
		}
	}
	return nil
}

// lineValue is what a line printed: the one result given to Print, as it
// came, or the one JSON value it wrote on stdout itself; nil when it
// printed nothing.
func lineValue(printed []json.RawMessage, stdout []byte) (json.RawMessage, error) {
	wrote, err := oneJSONValue(stdout)
	if err != nil {
		return nil, err
	}
	if wrote != nil {
		printed = append(printed, wrote)
	}
	switch len(printed) {
	case 0:
		return nil, nil
	case 1:
		return printed[0], nil
	}
	return nil, usagef("the line printed more than one JSON value: a batch line must print one JSON result")
}

// batchResult is a line's JSON line: its result, or its error with the
// exit code it would have on its own. What the line printed is the
// result; with an error, a continuation (exit 6) or a tool's isError
// result (exit 1), kept in the error object. The line is written once,
// in a buffer of its size, the result compacted straight into it. The
// error's message and data, which quote the server, have the credentials
// sent redacted.
func batchResult(n int, printed json.RawMessage, err error, tool *string, sent *secrets.Set) ([]byte, int) {
	if err == nil && tool != nil && isToolError(printed) {
		err = &ToolError{Name: *tool}
	}
	var b bytes.Buffer
	if err == nil {
		b.Grow(len(printed) + 32)
		b.WriteString(`{"line":` + strconv.Itoa(n) + `,"result":`)
		switch {
		case printed == nil:
			b.WriteString("null")
		case ojson.Compact(&b, printed) != nil:
			err, printed = usagef("the line printed something that is not JSON: a batch line must print a JSON result"), nil
			b.Reset()
		}
		if err == nil {
			b.WriteString("}\n")
			return b.Bytes(), ExitOK
		}
	}
	code := ExitCode(err)
	var rpc *client.RPCError
	errors.As(err, &rpc)
	msg := "interrupted"
	if code != ExitInterrupted {
		msg = sent.Redact(output.SanitizeMessage(oneLine(inOurWords(err))))
	}
	quoted := ojson.String(msg)
	var data json.RawMessage
	if rpc != nil && json.Valid(rpc.Data) {
		data = sent.RedactJSON(rpc.Data) // data that is no JSON is left out
	}
	b.Grow(len(printed) + len(data) + len(quoted) + 96)
	b.WriteString(`{"line":` + strconv.Itoa(n) + `,"error":{"exit":` + strconv.Itoa(code))
	if rpc != nil {
		b.WriteString(`,"code":` + strconv.FormatInt(rpc.Code, 10))
	}
	b.WriteString(`,"message":`)
	b.Write(quoted)
	compactMember(&b, "data", data)
	key := "result"
	if code == ExitInput {
		key = "continuation"
	}
	compactMember(&b, key, printed)
	b.WriteString("}}\n")
	return b.Bytes(), code
}

// compactMember writes ,"key":value with value compacted; nothing for no
// value, or one that is not JSON.
func compactMember(b *bytes.Buffer, key string, value json.RawMessage) {
	if len(value) == 0 {
		return
	}
	mark := b.Len()
	b.WriteString(`,"` + key + `":`)
	if ojson.Compact(b, value) != nil {
		b.Truncate(mark)
	}
}

// oneJSONValue is the JSON value a line wrote on stdout itself (as
// resources read --out - writes the contents); nil when it wrote nothing.
func oneJSONValue(out []byte) (json.RawMessage, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(out))
	d.UseNumber()
	var v json.RawMessage
	if err := d.Decode(&v); err != nil {
		// resources read --out -: the contents themselves, which a JSON
		// line cannot carry.
		return nil, usagef("the line printed something that is not JSON (%v): a batch line must print a JSON result", err)
	}
	if d.More() {
		return nil, usagef("the line printed more than one JSON value: a batch line must print one JSON result")
	}
	return v, nil
}

// lineConnection is a line's connection: the batch's client and settings,
// this line's streams, JSON output. Closing it closes nothing of the
// batch's.
func (b *batchRun) lineConnection(ios *output.IOStreams, how ConnectOptions, printed *[]json.RawMessage) *connection {
	bs := b.s
	st := *bs.connSettings
	st.render, st.pageable = output.Options{Format: output.FormatJSON}, how.Pageable
	return &connection{
		connSettings: &st, f: b.f, ios: ios, client: bs.client, opts: bs.opts,
		progress: bs.progress, input: bs.input, borrowed: true, printed: printed, viaSession: bs.viaSession,
	}
}
