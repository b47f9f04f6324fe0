import Fastify from "fastify";
import pg from "pg";
import { registerBareRead } from "./bare-read-route";

// The memory benchmark's baseline process: the bare authenticated read (bare-read-route.ts) on its
// own, `DATABASE_URL` and `PORT` from the environment; prints "listening" once it accepts requests.

const app = Fastify({ logger: false });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
registerBareRead(app, pool);
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log("listening");
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
