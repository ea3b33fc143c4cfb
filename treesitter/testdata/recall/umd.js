/* A library built the old way: one function wrapping the module, methods
   hung on prototypes, exports assigned one by one. */
;(function () {
  var VERSION = '1.0.0';

  function Cache(entries) {
    this.size = 0;
  }

  function cacheClear() {
    this.size = 0;
  }

  Cache.prototype.clear = cacheClear;
  Cache.prototype.has = function (key) {
    return false;
  };

  var utils = {};
  utils.chunk = function (array, size) {
    return [array, size];
  };

  if (typeof exports === 'object') {
    exports.Cache = Cache;
  }
}.call(this));

exports.parse = function (text) {
  return text;
};
module.exports.stringify = (value) => String(value);

var api = {
  format(value) {
    return String(value);
  },
  render: function (tree) {
    return tree;
  },
  limit: 10,
};

module.exports = { api, helpers: utilsOf(api) };
