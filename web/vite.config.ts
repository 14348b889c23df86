import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * sonner injects its stylesheet as an inline <style> when it loads, which the
 * Content-Security-Policy (style-src 'self', api.md "Security headers") refuses, leaving
 * toasts unstyled. Drop the injection; src/main.tsx imports the same rules from
 * `sonner/dist/styles.css` into the bundled stylesheet instead.
 */
function sonnerWithoutInlineStyle(): Plugin {
  const injection = /^__insertCSS\(".*"\);$/m;
  return {
    name: 'sonner-without-inline-style',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      if (!injection.test(code))
        throw new Error('sonner no longer injects its CSS as expected: revisit vite.config.ts');
      return { code: code.replace(injection, ''), map: null };
    },
  };
}

export default defineConfig({
  plugins: [
    // Must run before the React plugin: it rewrites route files into lazily loaded chunks,
    // which is what keeps the landing page free of the app's code.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Each route's loader in a small chunk of its own: what it imports (query factories) stays
      // out of the route tree every page loads, the landing page's included, and its data is
      // asked for while the page's component chunk is still loading.
      codeSplittingOptions: {
        defaultBehavior: [['loader'], ['component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
    sonnerWithoutInlineStyle(),
    // The service worker keeps the app shell so the app opens offline. It handles navigations
    // and the built files only: API answers are kept by the page itself (src/lib/saved-answers.ts),
    // so every API request stays the page's own (network, CSP, request interception in tests).
    VitePWA({
      registerType: 'autoUpdate',
      // /registerSW.js, an external script: the CSP allows no inline one.
      injectRegister: 'script',
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{html,js,css,ico,svg,png,woff2}'],
        navigateFallback: '/index.html',
        // The server's own answers (API, uploads, chat paths, health) are never the app shell.
        navigateFallbackDenylist: [/^\/(api|uploads|chats|users|health|ready)(\/|\?|$)/],
        cleanupOutdatedCaches: true,
        // autoUpdate: a new deploy's worker takes over at once and controls open tabs, so the
        // next navigation gets the new build (the plugin sets these only with injectRegister 'auto').
        skipWaiting: true,
        clientsClaim: true,
      },
    }),
  ],
  resolve: { conditions: ['source'] },
  server: {
    proxy: { '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000', '/chats': 'http://localhost:8000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
