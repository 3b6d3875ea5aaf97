import type { Pack } from './types.js';

/** mish itself: the operator's channel. */
export const mishPack: Pack = {
  id: 'mish',
  description: "An agent talking to mish's operator socket directly (socat / nc -U / curl --unix-socket on the operator folder, $XDG_RUNTIME_DIR/mish/servers or ~/.local/state/mish/run/servers) decides its own requests: forbid.",
  rules: String.raw`
[[rule]]
id = "operator-socket"
decision = "forbid"
reason = "talks to mish's operator socket directly: an agent may not answer its own approval requests"
commands = ["socat", "nc", "ncat", "netcat", "curl", "python", "python3", "node", "perl", "ruby", "websocat", "wscat"]
argv_any = 'mish/(?:run/)?servers(?:/|\b)'
`,
};
