import { useEffect, useRef, useState } from 'preact/hooks';
import { chooseBackend, type BackendChoice } from '../../lab/page/choose-backend';
import { DEFAULT_LAB_SETTINGS, type LabSettings } from '../../lab/experiments/settings';
import { useMessages } from '../../i18n/use-messages';

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
  /** The backend a run will use and why, once the adapter has been asked (null before: not ready to run). */
  readonly choice: BackendChoice | null;
  readonly change: (settings: LabSettings, batchText: string) => void;
}

/**
 * Settings start at the experiment's defaults. Once the page has hydrated it asks for a WebGPU
 * adapter (no download), so the page can say before Run which backend will run and what it
 * cannot show. Where the experiment has software sizes and would run on a software adapter, and
 * the reader has not changed anything yet, the sizes drop and a note says why.
 */
export function useLabSettings({ defaults, software, needsF16 = false }: StartingSizes): LabSettingsState {
  const initial: LabSettings = { ...DEFAULT_LAB_SETTINGS, ...defaults };
  const sized: LabSettings = { ...initial, ...software };
  const [settings, setSettings] = useState(initial);
  const [batchText, setBatchText] = useState(String(initial.batch));
  const [startedAt, setStartedAt] = useState<'software' | 'default' | null>(null);
  const [choice, setChoice] = useState<BackendChoice | null>(null);
  const touched = useRef(false);
  const words = useMessages().lab.controls;
  const describeSizes = ({ hidden, layers, batch }: LabSettings): string => words.sizes(hidden, layers, batch);

  useEffect(() => {
    let mounted = true;
    void chooseBackend({ needsF16 }).then((chosen) => {
      if (!mounted) return;
      setChoice(chosen);
      if (!software || touched.current || chosen.backend !== 'webgpu' || !chosen.software) {
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
    softwareNote: startedAt === 'software' ? words.softwareNote(describeSizes(sized), describeSizes(initial)) : null,
    startedAt,
    choice,
    change: (next, text) => {
      touched.current = true;
      setSettings(next);
      setBatchText(text);
    },
  };
}
