// node-polyglot (react-admin's translator) asks for the `object.entries` polyfill, which brings
// get-intrinsic, call-bind and a dozen more (about 10 KB) into the back office's first load. Every
// browser the back office supports has Object.entries; admin/vite.config.ts points the import here.
module.exports = Object.entries;
