// The second major versions are installed under aliases; they share the current versions' types.
declare module 'express4' {
  import express from 'express';
  export default express;
}
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
declare module 'fastify4' {
  import Fastify from 'fastify';
  export default Fastify;
}
