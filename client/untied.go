package client

// What the server says tied to no request (a log message on stdio, a list
// change, a task's status) reaches the Client once: through the handler it
// installs on its transport (Capabilities.Notifications) and gives the
// legacy GET stream (OpenEvents), and from a legacy Listen, which passes
// on what it does not select. The Client hands it to what waits for such
// notifications for a while (a legacy task's status, a Listen's trace of
// strays), then to Hooks.OnNotify.

// untied hands on a notification tied to no request.
func (c *Client) untied(n Notification) {
	for _, fn := range c.observers.list() {
		fn(n)
	}
	if subscriptionOf(n.Params) != nil {
		return // of a subscription that is not this client's: nothing to show
	}
	if c.opts.Hooks.OnNotify != nil {
		c.opts.Hooks.OnNotify(n)
	}
}

// observe hands fn the notifications tied to no request until the
// returned func is called.
func (c *Client) observe(fn func(Notification)) (stop func()) { return c.observers.add(fn) }
