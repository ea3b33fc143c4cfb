import x from "x";

export function handler(req, res) {
  return res;
}

export default class Server extends Base {
  port = 8080;
  static #count = 0;

  constructor(port) {
    super();
    this.port = port;
  }

  async listen() {}

  get address() { return this.port; }
}

const add = (a, b) => a + b;
let counter = 0, limit = 10;
var legacy = function () {};
function* ids() { yield 1; }
const { a, b } = obj;
module.exports = { add };
