#!/usr/bin/env python3
"""A minimal MCP server on stdio, for a plugin's contributes.mcpServers.

argv[1] is what its tool answers (root=...); argv[2], when given, is how
many seconds it takes to start (answer initialize), or "gate:PATH": it
answers initialize only once PATH exists (the test makes it when it has
seen what it waits for). With argv[3] "extras"
it also offers a prompt and a resource, and asks the user a question
(elicitation/create) before answering a tool call, adding the answer's
action to the result."""
import json
import os
import sys
import time

extras = len(sys.argv) > 3 and sys.argv[3] == "extras"


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def ask():
    send({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
          "params": {"message": "Proceed with the lookup?", "requestedSchema": {"type": "object", "properties": {}}}})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("id") == "ask-1" and "method" not in msg:
            return msg.get("result", {}).get("action", "error: " + json.dumps(msg.get("error")))
    return "eof"


for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method, rid = msg.get("method"), msg["id"]
    if method == "initialize":
        if len(sys.argv) > 2 and sys.argv[2].startswith("gate:"):
            while not os.path.exists(sys.argv[2][len("gate:"):]):
                time.sleep(0.01)
        elif len(sys.argv) > 2:
            time.sleep(float(sys.argv[2]))
        caps = {"tools": {}}
        if extras:
            caps.update({"prompts": {}, "resources": {}})
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": caps,
                  "serverInfo": {"name": "echo", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "where", "description": "Says where the server runs from.",
                             "inputSchema": {"type": "object", "properties": {}}}]}
    elif method == "tools/call":
        text = "root=" + sys.argv[1]
        if extras:
            text += " asked=" + ask()
        result = {"content": [{"type": "text", "text": text}]}
    elif method == "prompts/list" and extras:
        result = {"prompts": [{"name": "brief", "description": "A brief."}]}
    elif method == "prompts/get" and extras:
        result = {"messages": [{"role": "user", "content": {"type": "text", "text": "BRIEF-TEXT"}}]}
    elif method == "resources/list" and extras:
        result = {"resources": [{"uri": "note://one", "name": "one"}]}
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}})
        continue
    send({"jsonrpc": "2.0", "id": rid, "result": result})
