#!/usr/bin/env python3
"""A tandem plugin in plain Python, with no SDK: the test plugin.

It speaks JSON-RPC 2.0 on stdin/stdout, one JSON message per line, as
docs/plugins.md describes. What it does is set by its settings (the
"config" of initialize), so one script plays every role a test needs.
Every hook it receives is appended to calls.jsonl in its data folder and,
when the settings name a "recordTo" address, sent there as the same line
once written, so a test waits for a call instead of polling the file.
"""
import json
import os
import socket
import sys
import time

config = {}
data_dir = os.environ.get("TANDEM_PLUGIN_DATA", ".")


def send(msg):
    msg["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


recorder = []


def record(method, params):
    line = json.dumps({"method": method, "params": params}) + "\n"
    with open(os.path.join(data_dir, "calls.jsonl"), "a") as f:
        f.write(line)
    if config.get("recordTo"):
        try:
            if not recorder:
                host, port = config["recordTo"].rsplit(":", 1)
                recorder.append(socket.create_connection((host, int(port))))
            recorder[0].sendall(line.encode())
        except OSError:
            pass  # the test has stopped listening: the file still has it


next_id = [0]


def call_host(method, params):
    """A request to tandem; the answer is the next response on stdin."""
    next_id[0] += 1
    send({"id": "p%d" % next_id[0], "method": method, "params": params})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("id") == "p%d" % next_id[0] and "method" not in msg:
            return msg
    raise EOFError


def misbehave(act):
    if act.get("sleepMs"):
        time.sleep(act["sleepMs"] / 1000)
    if act.get("crash"):
        os._exit(3)
    if act.get("garbage"):
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()


def try_host_files():
    """Writes, lists and reads through the host, inside and outside the grants."""
    for method, params in [
        ("host/writeFile", {"path": os.path.join(data_dir, "notes", "a.txt"), "content": "kept"}),
        ("host/listFiles", {"path": os.path.join(data_dir, "notes")}),
        ("host/readFile", {"path": "granted/x.txt"}),
        ("host/writeFile", {"path": "outside.txt", "content": "no"}),
    ]:
        answer = call_host(method, params)
        record(method, answer.get("result") or {"error": answer.get("error", {}).get("code")})


def initialize(p):
    global config, data_dir
    config = p.get("config") or {}
    data_dir = p.get("dataDir") or data_dir
    record("environment", sorted(os.environ))
    for path in config.get("tryWrite", []):
        try:
            with open(path, "w") as f:
                f.write("x")
            record("wrote", path)
        except OSError as e:
            record("refused", path)
    for port in config.get("tryConnect", []):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            record("connected", port)
        except OSError:
            record("unreachable", port)
    send({"method": "host/log", "params": {"level": "info", "message": "initialized for " + p["sessionId"]}})
    if config.get("hostFiles"):
        try_host_files()
    for method, params in config.get("hostCalls", []):
        answer = call_host(method, params)
        record(method, answer.get("result") or {"error": answer.get("error", {}).get("code")})
    result = {"protocolVersion": "1", "hooks": config.get("hooks", []),
              "systemPrompt": bool(config.get("promptRule"))}
    if config.get("tool"):
        result["tools"] = [{
            "name": config["tool"],
            "description": "Returns its text argument in upper case.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        }]
    return result


def before_tool_call(p):
    act = config.get("beforeToolCall", {})
    misbehave(act)
    args = p.get("arguments") or {}
    deny = act.get("deny")
    if deny and deny in json.dumps(args):
        return {"allow": False, "reason": act.get("reason", "denied by the test plugin")}
    if act.get("append"):
        key, suffix = act["append"]
        args = dict(args)
        args[key] = args.get(key, "") + suffix
        return {"allow": True, "arguments": args}
    return {"allow": True}


def after_tool_call(p):
    act = config.get("afterToolCall", {})
    misbehave(act)
    if act.get("suffix"):
        text = "".join(c.get("text", "") for c in p["result"]["content"])
        return {"result": {"content": [{"type": "text", "text": text + act["suffix"]}], "isError": p["result"].get("isError", False)}}
    return None


def handle(method, params):
    if method == "initialize":
        return initialize(params)
    if method == "systemPrompt/transform":
        return {"prompt": params["prompt"] + "\n\n" + config["promptRule"]}
    if method == "tools/call":
        text = (params.get("arguments") or {}).get("text", "")
        if config.get("mcpCall"):
            answer = call_host("host/mcp/callTool", dict(config["mcpCall"], arguments={}))
            if "error" in answer:
                return {"content": [{"type": "text", "text": "refused (%d): %s" % (answer["error"]["code"], answer["error"]["message"])}], "isError": True}
            return {"content": [{"type": "text", "text": "mcp said: " + "".join(c.get("text", "") for c in answer["result"]["content"])}]}
        if config.get("modelTool"):
            answer = call_host("host/model", {"system": "Answer briefly.", "messages": [{"role": "user", "text": text}]})
            if "error" in answer:
                return {"content": [{"type": "text", "text": "refused: " + answer["error"]["message"]}], "isError": True}
            return {"content": [{"type": "text", "text": "model said: " + answer["result"]["text"]}]}
        return {"content": [{"type": "text", "text": text.upper()}]}
    if method == "hooks/beforeToolCall":
        return before_tool_call(params)
    if method == "hooks/afterToolCall":
        return after_tool_call(params)
    if method == "hooks/beforeAsk":
        if config.get("denyAsk"):
            return {"decision": "deny", "reason": config["denyAsk"]}
        if config.get("approveAsk"):
            return {"decision": "approve"}
        return {"decision": "ask"}
    if method == "hooks/beforeFileEdit":
        deny = config.get("denyEdit")
        if deny and deny in params["path"]:
            return {"allow": False, "reason": "that file is frozen"}
        return {"allow": True}
    if method == "shutdown":
        return {}
    raise KeyError(method)


for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    method = msg.get("method")
    if method is None:
        continue  # a response to one of our calls (host/log is a notification)
    record(method, msg.get("params"))
    if "id" not in msg:
        continue  # a notification: an observing hook
    try:
        send({"id": msg["id"], "result": handle(method, msg.get("params") or {})})
    except KeyError:
        send({"id": msg["id"], "error": {"code": -32601, "message": "method not found: " + method}})
    if method == "shutdown":
        break
