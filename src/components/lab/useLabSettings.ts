import { useEffect, useRef, useState } from 'preact/hooks';
import { chooseBackend } from '../../lab/backend';
import { DEFAULT_LAB_SETTINGS, type LabSettings } from '../../lab/settings';

/** Where an experiment's sizes start. */
export interface StartingSizes {
  /** Over the lab's defaults. */
  readonly defaults?: Partial<LabSettings> | undefined;
  /** Over `defaults` on a software WebGPU adapter; without them the sizes never change. */
  readonly software?: Partial<LabSettings> | undefined;
  /** The experiment needs 16-bit shaders, so it would run on WebAssembly where an adapter lacks them. */
  readonly needsF16?: boolean | undefined;
}

/** The reader's settings, the batch field's text, and why the sizes start where they do. */
export interface LabSettingsState {
  readonly settings: LabSettings;
  readonly batchText: string;
  /** Set when the sizes were lowered for a software adapter; null otherwise. */
  readonly softwareNote: string | null;
  /** Where the sizes started, once known: `software` or `default` (null while the adapter is asked). */
  readonly startedAt: 'software' | 'default' | null;
  readonly change: (settings: LabSettings, batchText: string) => void;
}

/** The model's size in words, e.g. "width 128, 4 layers, batch 256". */
const describeSizes = ({ hidden, layers, batch }: LabSettings): string => `width ${hidden}, ${layers} layers, batch ${batch}`;

/**
 * Settings start at the experiment's defaults. Where it has software sizes, once the page has
 * hydrated it asks for a WebGPU adapter (no download); if the experiment would run on a software
 * one, and the reader has not changed anything yet, the sizes drop and a note says why.
 */
export function useLabSettings({ defaults, software, needsF16 = false }: StartingSizes): LabSettingsState {
  const initial: LabSettings = { ...DEFAULT_LAB_SETTINGS, ...defaults };
  const sized: LabSettings = { ...initial, ...software };
  const [settings, setSettings] = useState(initial);
  const [batchText, setBatchText] = useState(String(initial.batch));
  const [startedAt, setStartedAt] = useState<'software' | 'default' | null>(software ? null : 'default');
  const touched = useRef(false);

  useEffect(() => {
    if (!software) return;
    let mounted = true;
    void chooseBackend({ needsF16 }).then(({ backend, software: onSoftware }) => {
      if (!mounted) return;
      if (touched.current || backend !== 'webgpu' || !onSoftware) {
        setStartedAt('default');
        return;
      }
      setSettings(sized);
      setBatchText(String(sized.batch));
      setStartedAt('software');
    });
    return () => {
      mounted = false;
    };
  }, []);

  return {
    settings,
    batchText,
    softwareNote:
      startedAt === 'software'
        ? `This browser runs WebGPU on a software adapter, which does every GPU kernel on the CPU, so the sizes start at ${describeSizes(sized)} (on a GPU: ${describeSizes(initial)}).`
        : null,
    startedAt,
    change: (next, text) => {
      touched.current = true;
      setSettings(next);
      setBatchText(text);
    },
  };
}
