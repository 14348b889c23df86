import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    // Must run before the React plugin: it rewrites route files into lazily loaded chunks,
    // which is what keeps the landing page free of the app's code.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
  ],
  resolve: { conditions: ['source'] },
  server: {
    proxy: { '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000', '/chats': 'http://localhost:8000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
