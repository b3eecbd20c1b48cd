// A headless "browser" for the conformance suite's auth scenarios, given to
// mcpctl as $BROWSER: it loads the authorization URL and follows the
// authorization server's redirect, which lands on mcpctl's own loopback
// listener (the redirect_uri mcpctl chose), exactly as a real browser would.
// The suite's authorization server approves without a login page.
//
//   node browser.mjs URL
const url = process.argv[2];
if (!url) {
  console.error('usage: node browser.mjs URL');
  process.exit(2);
}
try {
  const res = await fetch(url, { redirect: 'follow' });
  await res.arrayBuffer();
} catch (e) {
  console.error(`browser.mjs: ${e.message}`);
  process.exit(1);
}
