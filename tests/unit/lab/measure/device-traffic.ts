/**
 * A fake device for the measuring core, over onnxruntime's WASM backend in Node: it keeps track
 * of which tensors would live in GPU memory and counts what would cross between host and device.
 * Device tensors are those the store places or uploads, views of them, and the outputs a session
 * keeps on the device. onnxruntime-web copies every host tensor a run reads to the GPU, so each
 * host feed is counted per run. Device tensors follow onnxruntime-common's `getData()` rule:
 * read that way, a GPU tensor becomes a host tensor (tensor-impl.ts sets its location to `cpu`),
 * so a loop that reads values that way shows here as a later host feed.
 */
import * as ort from 'onnxruntime-web';
import type { Executor, Session, Tensor, TensorStore } from '../../../../src/lab/measure/executor.ts';
import { hostStore } from '../../../../src/lab/measure/host-store.ts';
import { nodeExecutor, type GraphFiles } from './node-executor.ts';

/** One host tensor a run read: onnxruntime-web uploads it for that run. */
export interface HostFeed {
  readonly input: string;
  readonly type: Tensor['type'];
  readonly bytes: number;
}

/** What crossed between host and device so far. */
export interface DeviceTraffic {
  /** Bytes the store placed or uploaded into buffers of their own. */
  placedBytes: number;
  /** Bytes written over device tensors' values (a collective's result landing). */
  overwrittenBytes: number;
  /** Bytes copied from device tensors to the host by the store. */
  downloadedBytes: number;
  /** Every host tensor fed to a run, in order. */
  readonly hostFeeds: HostFeed[];
}

/** An executor on a fake device over `files`, and the traffic it counts. */
export function deviceTrafficExecutor(files: GraphFiles): { exec: Executor; traffic: DeviceTraffic } {
  const traffic: DeviceTraffic = { placedBytes: 0, overwrittenBytes: 0, downloadedBytes: 0, hostFeeds: [] };
  const onDevice = new WeakSet<Tensor>();
  const resident = (tensor: Tensor): Tensor => {
    onDevice.add(tensor);
    const getData = tensor.getData.bind(tensor);
    tensor.getData = (releaseData) => {
      onDevice.delete(tensor);
      return getData(releaseData);
    };
    return tensor;
  };
  const host = hostStore(ort);
  const store: TensorStore = {
    ...host,
    onDevice: true,
    place(feed) {
      traffic.placedBytes += feed.data.byteLength;
      return resident(host.place(feed));
    },
    upload(feed) {
      traffic.placedBytes += feed.data.byteLength;
      return resident(host.place(feed));
    },
    overwrite(target, values) {
      if (onDevice.has(target)) traffic.overwrittenBytes += values.byteLength;
      host.overwrite(target, values);
    },
    flatView(tensor, length) {
      const view = host.flatView(tensor, length);
      return onDevice.has(tensor) ? resident(view) : view;
    },
    download(tensor) {
      if (onDevice.has(tensor)) traffic.downloadedBytes += tensor.size * 4;
      return host.download(tensor);
    },
  };
  const base = nodeExecutor(files, store);
  const keptBy = new Map<Session, (name: string) => boolean>();
  const exec: Executor = {
    ...base,
    async open(graph, keepOnDevice = () => false) {
      const session = await base.open(graph, keepOnDevice);
      keptBy.set(session, keepOnDevice);
      return session;
    },
    async openAll(graphs, keepOnDevice) {
      const sessions: Session[] = [];
      for (const graph of graphs) sessions.push(await exec.open(graph, keepOnDevice));
      return sessions;
    },
    async run(session, feeds) {
      for (const [input, tensor] of Object.entries(feeds))
        if (!onDevice.has(tensor))
          traffic.hostFeeds.push({ input, type: tensor.type, bytes: (tensor.data as Float32Array | BigInt64Array).byteLength });
      const outputs = await base.run(session, feeds);
      const kept = keptBy.get(session) ?? (() => false);
      for (const [name, tensor] of Object.entries(outputs)) if (kept(name)) resident(tensor);
      return outputs;
    },
  };
  return { exec, traffic };
}

/** The host feeds of float tensors larger than a scalar: data a run had to upload again. */
export function floatUploads(traffic: DeviceTraffic): HostFeed[] {
  return traffic.hostFeeds.filter((feed) => feed.type === 'float32' && feed.bytes > 4);
}
