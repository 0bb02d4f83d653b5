import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { DEFAULT_LOCALE, type Locale } from './locales';
import { messagesFor, type Messages } from './messages/index';

/**
 * The page's language inside an island. An island's root takes a `locale` prop (remark-island-locale.ts gives it to
 * every island of a translated page) and provides it here, so the components it renders read the same catalogue on
 * the server and in the browser. Without a provider (a widget not yet converted renders one of these) it is English.
 */
export const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

/** The catalogue of the island's language. */
export function useMessages(): Messages {
  return messagesFor(useContext(LocaleContext));
}
