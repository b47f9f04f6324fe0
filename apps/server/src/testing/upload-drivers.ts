import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { UploadStorageConfig } from "@hisob/core";
import type { Db } from "@hisob/db";
import { freePort, waitForPort } from "@hisob/db/testing";

/**
 * Each upload storage driver as a test sees it: the configuration, and what is stored for a tenant,
 * read behind the server's back — content under a readable name, and content left by unfinished uploads.
 */
export type UploadDriver = {
  name: UploadStorageConfig["driver"];
  config: UploadStorageConfig;
  stored(tenantId: string): Promise<string[]>;
  partials(tenantId: string): Promise<string[]>;
  close(): Promise<void>;
};

export const TEST_BUCKET = "hisob-test";
const require = createRequire(import.meta.url);

/**
 * An S3-compatible server (s3rver: no other can be installed here) on a loopback port, with one empty
 * bucket, in a process of its own, so what it holds does not count in the memory tests measure.
 */
export const startS3Server = async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "hisob-s3-"));
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      require.resolve("s3rver/bin/s3rver.js"),
      ...["-d", directory, "-a", "127.0.0.1", "-p", String(port), "--silent"],
      ...["--configure-bucket", TEST_BUCKET],
    ],
    { stdio: "ignore" },
  );
  await waitForPort(port, server, "s3rver");
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  return {
    endpoint,
    config: (prefix = ""): UploadStorageConfig => ({
      driver: "s3",
      bucket: TEST_BUCKET,
      prefix,
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials,
    }),
    client: () => new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials }),
    close: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill();
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

const localDriver = (): UploadDriver => {
  const dir = mkdtempSync(path.join(tmpdir(), "hisob-uploads-"));
  const names = (tenantId: string) => {
    try {
      return readdirSync(path.join(dir, tenantId));
    } catch {
      return [];
    }
  };
  return {
    name: "local",
    config: { driver: "local", dir },
    stored: async (tenantId) => names(tenantId).filter((name) => !name.startsWith(".partial-")),
    partials: async (tenantId) => names(tenantId).filter((name) => name.startsWith(".partial-")),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const databaseDriver = (db: Db): UploadDriver => {
  /** Upload ids with chunks, split by whether an upload row claims them. */
  const chunks = (tenantId: string) =>
    db.withTenant(tenantId, async (tx) => {
      const ids = (await tx.uploadChunk.findMany({ distinct: ["uploadId"], select: { uploadId: true } })).map(
        (row) => row.uploadId,
      );
      const claimed = new Set(
        (await tx.upload.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((row) => row.id),
      );
      return { stored: ids.filter((id) => claimed.has(id)), partials: ids.filter((id) => !claimed.has(id)) };
    });
  return {
    name: "database",
    config: { driver: "database" },
    stored: async (tenantId) => (await chunks(tenantId)).stored,
    partials: async (tenantId) => (await chunks(tenantId)).partials,
    close: async () => {},
  };
};

const s3Driver = async (): Promise<UploadDriver> => {
  const server = await startS3Server();
  const client = server.client();
  const keys = async (prefix: string) => {
    const page = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((object) => path.basename(object.Key ?? ""));
  };
  return {
    name: "s3",
    config: server.config("files/"),
    stored: (tenantId) => keys(`files/${tenantId}/`),
    partials: (tenantId) => keys(`files/.partial/${tenantId}/`),
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
};

export const UPLOAD_DRIVERS = ["local", "database", "s3"] as const;

export const startUploadDriver = (name: UploadDriver["name"], db: Db): Promise<UploadDriver> =>
  name === "local"
    ? Promise.resolve(localDriver())
    : name === "database"
      ? Promise.resolve(databaseDriver(db))
      : s3Driver();
