# Build, install and regenerate mcpctl.
#
#   make install                      # into /usr/local
#   make install PREFIX=~/.local      # into your home
#   make install DESTDIR=/tmp/pkg     # staged, for packaging
#
# install puts the binary in $(PREFIX)/bin, the man pages in
# $(PREFIX)/share/man/man1 and the completion scripts where bash-completion,
# zsh and fish look for them (PowerShell's in $(PREFIX)/share/mcpctl; load it
# from your profile).

# go.mod's toolchain line (go1.27.3: go1.26.8's standard library has
# reachable vulnerabilities). A machine's own Go ignores that line unless
# told; the go command fetches this release from the Go module proxy.
GOTOOLCHAIN ?= go1.27.3
export GOTOOLCHAIN

PREFIX ?= /usr/local
DESTDIR ?=
GO ?= go
BIN ?= mcpctl

bindir  = $(DESTDIR)$(PREFIX)/bin
mandir  = $(DESTDIR)$(PREFIX)/share/man/man1
bashdir = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
zshdir  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
fishdir = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
psdir   = $(DESTDIR)$(PREFIX)/share/mcpctl

.PHONY: build install uninstall generate test

build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags urfave_cli_no_docs -o $(BIN) .

install: build
	install -d $(bindir) $(mandir) $(bashdir) $(zshdir) $(fishdir) $(psdir)
	install -m 0755 $(BIN) $(bindir)/mcpctl
	install -m 0644 man/*.1 $(mandir)/
	install -m 0644 completions/mcpctl.bash $(bashdir)/mcpctl
	install -m 0644 completions/_mcpctl $(zshdir)/_mcpctl
	install -m 0644 completions/mcpctl.fish $(fishdir)/mcpctl.fish
	install -m 0644 completions/mcpctl.ps1 $(psdir)/mcpctl.ps1

uninstall:
	rm -f $(bindir)/mcpctl $(mandir)/mcpctl.1 $(mandir)/mcpctl-*.1 $(bashdir)/mcpctl \
		$(zshdir)/_mcpctl $(fishdir)/mcpctl.fish $(psdir)/mcpctl.ps1

# man/ and completions/ are generated from the app and checked in.
generate:
	$(GO) generate ./...

test:
	bash tests/run.sh
