// Counts tokens of each text in a JSON array read from stdin with the
// o200k_base (GPT-4o/4.1/5, o-series) and cl100k_base (GPT-4, GPT-3.5)
// encodings, printing [[o200k, cl100k], ...]. NODE_PATH names the
// node_modules that holds gpt-tokenizer.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.env.NODE_PATH, 'x.js'));
const o200k = require('gpt-tokenizer/cjs/encoding/o200k_base');
const cl100k = require('gpt-tokenizer/cjs/encoding/cl100k_base');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((t) => [o200k.countTokens(t), cl100k.countTokens(t)])));
});
