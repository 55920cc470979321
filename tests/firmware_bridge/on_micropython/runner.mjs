// The firmware under real MicroPython: the official WebAssembly port (npm), driven by the tests
// (tests/firmware_bridge/micropython_device.py) over stdin/stdout, one JSON object a line.
//
//   node runner.mjs [--heap BYTES] [--bare] FILE...   copies each FILE into MicroPython's filesystem root
//                                            (as the Pico has them), imports harness.py, then:
//   {"cmd": ["boot", ...]}  ->  {"ok": true, "reply": "<harness.handle's JSON>", "printed": ""}
//   {"exec": "python code"} ->  {"ok": true, "printed": "what it printed"}
//   a Python exception      ->  {"ok": false, "error": "the traceback", "printed": ...}
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const args = process.argv.slice(2);
let heapsize = 1024 * 1024;
let bare = false; // --bare: import nothing yet (the heap measurement imports step by step)
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--heap") heapsize = parseInt(args[++i], 10);
  else if (args[i] === "--bare") bare = true;
  else files.push(args[i]);
}

let printed = [];
const mp = await loadMicroPython({
  heapsize,
  stdout: (line) => printed.push(line),
  stderr: (line) => printed.push(line),
});
for (const file of files) mp.FS.writeFile("/" + basename(file), readFileSync(file));

function run(code) {
  printed = [];
  try {
    mp.runPython(code);
    return { ok: true, printed: printed.join("\n") };
  } catch (err) {
    return { ok: false, error: String(err.message || err), printed: printed.join("\n") };
  }
}

const ready = bare ? run("pass") : run("import harness");
process.stdout.write(JSON.stringify(ready) + "\n");
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  let answer;
  if (request.exec !== undefined) {
    answer = run(request.exec);
  } else {
    mp.globals.set("_line", JSON.stringify(request.cmd));
    answer = run("_reply = harness.handle(_line)");
    if (answer.ok) answer.reply = mp.globals.get("_reply");
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
