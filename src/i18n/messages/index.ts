import type { Locale } from '../locales';
import { EN, type Messages } from './en';
import { ZH_CN } from './zh-cn';

export type { Messages } from './en';

/** Every language's catalogue, by locale. */
export const MESSAGES: Readonly<Record<Locale, Messages>> = { en: EN, 'zh-cn': ZH_CN };

/** The catalogue of `locale`. */
export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}
