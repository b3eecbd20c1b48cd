package client

import "io"

// lineBuffer collects a message read in pieces, in chunks of its own that
// are never moved, and joins them once at the end. Appending to one slice
// instead would reallocate it on the way to a large message, doubling it:
// the old and the new copy are both alive at each step, and a trail of
// copies is left for the garbage collector, several times the message's
// size in all (a refused 64 MiB body peaked at 270 MiB). Here a message
// refused at the limit has cost the limit and one chunk; the fault
// suite's memory bounds rely on it.
type lineBuffer struct {
	chunks [][]byte // each full (len == cap) but the last
	n      int
}

// Chunks start small, so a short message costs little, and double up to
// maxChunk, which is all a buffer ever holds beyond what it was given.
const (
	minChunk = 4 << 10
	maxChunk = 1 << 20
)

// add copies p, which the caller may reuse.
func (b *lineBuffer) add(p []byte) {
	for len(p) > 0 {
		free := b.free(len(p))
		k := copy(free, p)
		b.grew(k)
		p = p[k:]
	}
}

// free returns the unused end of the last chunk, starting a new chunk
// when that one is full. The first chunk is want bytes (a message that
// comes in one piece then fills it exactly and is never copied again);
// later ones double, from minChunk to maxChunk.
func (b *lineBuffer) free(want int) []byte {
	if len(b.chunks) > 0 {
		if last := b.chunks[len(b.chunks)-1]; len(last) < cap(last) {
			return last[len(last):cap(last)]
		}
	}
	size := want
	if len(b.chunks) > 0 {
		size = min(max(2*cap(b.chunks[len(b.chunks)-1]), minChunk), maxChunk)
	}
	b.chunks = append(b.chunks, make([]byte, 0, size))
	last := b.chunks[len(b.chunks)-1]
	return last[:cap(last)]
}

// grew records that k bytes were written into free's slice.
func (b *lineBuffer) grew(k int) {
	last := &b.chunks[len(b.chunks)-1]
	*last = (*last)[:len(*last)+k]
	b.n += k
}

// readFrom reads r to its end; past max bytes it stops with errTooLarge,
// having read max+1 and no more.
func (b *lineBuffer) readFrom(r io.Reader, max int) error {
	for {
		free := b.free(minChunk)
		free = free[:min(len(free), max+1-b.n)]
		k, err := r.Read(free)
		b.grew(k)
		if b.n > max {
			return errTooLarge
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (b *lineBuffer) len() int { return b.n }

// bytes returns the message; nil when nothing was added.
func (b *lineBuffer) bytes() []byte {
	chunks := b.chunks
	for len(chunks) > 0 && len(chunks[len(chunks)-1]) == 0 {
		chunks = chunks[:len(chunks)-1] // a chunk started for a read that found the end
	}
	switch len(chunks) {
	case 0:
		return nil
	case 1:
		return chunks[0]
	}
	out := make([]byte, 0, b.n)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}
