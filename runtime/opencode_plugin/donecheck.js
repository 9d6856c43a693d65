// DoneCheck's plugin for OpenCode: written by `donecheck install opencode`, taken out
// by `donecheck install opencode --uninstall`. It does for OpenCode what the stop and
// tool hooks do for the other agent CLIs: it hands every user prompt, every finished
// tool call and every final answer of a session to `donecheck hook --agent opencode`
// (which talks to the running `donecheck serve`), and when DoneCheck says the work is
// not done yet, it hands DoneCheck's checklist back to the same session as the next
// user message, so the same run goes on.
//
// Pinned to opencode-ai 1.18.33: `experimental.text.complete` (awaited before the
// agent loop decides to stop) and `experimental.chat.messages.transform` are not a
// stable API. Plain JavaScript, no imports but Node's: nothing to install.

import { spawn } from "node:child_process";

const COMMAND = "donecheck hook --agent opencode"; // donecheck:command (set by the installer)
const EVENT = { prompt: "chat.message", tool: "tool.execute.after", stop: "text.complete" };
const ERROR = "session.error";

export const DoneCheck = async ({ client, directory }) => {
  const roots = new Map(); // session id -> the top session it is a sub-agent of
  const queues = new Map(); // session id -> the hook calls still under way, in order
  const handedBack = new Map(); // session id -> checklists handed back, by text

  const log = async (level, message) => {
    try {
      await client.app.log({ body: { service: "donecheck", level, message } });
    } catch {
      // nowhere to say it
    }
  };

  const hook = (payload) =>
    new Promise((resolve) => {
      let out = "";
      let err = "";
      let child;
      try {
        child = spawn("/bin/sh", ["-c", COMMAND], { stdio: ["pipe", "pipe", "pipe"] });
      } catch (error) {
        resolve({ error: String(error) });
        return;
      }
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (err += chunk));
      child.on("error", (error) => resolve({ error: String(error) }));
      child.on("close", (code) => {
        if (code !== 0) {
          resolve({ error: err.trim() || `donecheck hook exited ${code}` });
          return;
        }
        try {
          resolve(out.trim() ? JSON.parse(out) : {});
        } catch {
          resolve({ error: `donecheck hook printed no JSON: ${out.slice(0, 200)}` });
        }
      });
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
    });

  // One session's hook calls run one after another: a tool call is recorded before
  // the stop that follows it is reviewed.
  const send = (session, payload) => {
    const before = queues.get(session) ?? Promise.resolve();
    const done = before.then(() => hook({ ...payload, session_id: session, cwd: directory }));
    queues.set(session, done.catch(() => ({})));
    done.then((answer) => answer?.error && log("warn", `DoneCheck: ${answer.error}`));
    return done;
  };

  // A sub-agent's session (OpenCode's task tool) is part of the session that started it.
  const rootOf = async (session) => {
    if (roots.has(session)) return roots.get(session);
    let found = session;
    try {
      for (let depth = 0; depth < 8; depth++) {
        const info = (await client.session.get({ path: { id: found } })).data;
        if (!info?.parentID) break;
        found = info.parentID;
      }
    } catch {
      // the session cannot be read: take it as a top one
    }
    roots.set(session, found);
    return found;
  };

  const textOf = (parts) =>
    (parts ?? [])
      .filter((p) => p?.type === "text" && !p.synthetic && !p.ignored)
      .map((p) => p.text ?? "")
      .join("\n");

  return {
    "chat.message": async (input, output) => {
      const session = input.sessionID;
      if ((await rootOf(session)) !== session) return; // a sub-agent's task prompt
      const prompt = textOf(output.parts);
      if (prompt.trim()) send(session, { hook_event_name: EVENT.prompt, prompt });
    },

    "tool.execute.after": async (input, output) => {
      const session = await rootOf(input.sessionID);
      const metadata = {};
      for (const [key, value] of Object.entries(output?.metadata ?? {})) {
        if (["number", "boolean"].includes(typeof value)) metadata[key] = value;
      }
      send(session, {
        hook_event_name: EVENT.tool,
        tool: input.tool,
        call_id: input.callID,
        args: input.args ?? {},
        output: { title: output?.title ?? "", output: output?.output ?? "", metadata },
      });
    },

    "experimental.text.complete": async (input, output) => {
      const session = input.sessionID;
      if (!output?.text?.trim() || (await rootOf(session)) !== session) return;
      let message;
      try {
        message = (
          await client.session.message({ path: { id: session, messageID: input.messageID } })
        ).data;
      } catch {
        message = undefined;
      }
      // text a tool call follows in the same step is not where the agent stops
      if (message?.parts?.some((p) => p.type === "tool")) return;
      const answer = await send(session, {
        hook_event_name: EVENT.stop,
        message_id: input.messageID,
        text: output.text,
      });
      if (answer?.systemMessage) log("info", answer.systemMessage);
      if (answer?.decision !== "block" || !answer.reason) return;
      const info = message?.info ?? {};
      const body = { parts: [{ type: "text", text: answer.reason }] };
      if (info.agent) body.agent = info.agent;
      if (info.providerID && info.modelID) {
        body.model = { providerID: info.providerID, modelID: info.modelID };
      }
      const given = handedBack.get(session) ?? new Set();
      given.add(answer.reason);
      handedBack.set(session, given);
      try {
        await client.session.promptAsync({ path: { id: session }, body });
      } catch (error) {
        log("error", `DoneCheck could not hand its checklist back: ${error}`);
      }
    },

    // A checklist handed back after text that a tool call then followed in the same
    // step (a provider that ends a text part before it streams the call) came too early:
    // the model does not see it; the stop that does come is reviewed again.
    "experimental.chat.messages.transform": async (_input, output) => {
      const messages = output.messages;
      for (let n = messages.length - 1; n > 0; n--) {
        const { info, parts } = messages[n];
        const given = handedBack.get(info?.sessionID);
        if (info?.role !== "user" || !given?.has(textOf(parts))) continue;
        const before = messages[n - 1];
        if (before.info?.role === "assistant" && before.parts?.some((p) => p.type === "tool")) {
          messages.splice(n, 1);
        }
      }
    },

    event: async ({ event }) => {
      if (event?.type !== ERROR) return;
      const session = event.properties?.sessionID;
      if (session && event.properties?.error?.name === "MessageAbortedError") {
        send(await rootOf(session), { hook_event_name: ERROR, reason: "aborted" });
      }
    },
  };
};
