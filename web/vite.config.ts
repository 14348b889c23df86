import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { conditions: ['source'] },
  server: {
    proxy: { '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000', '/chats': 'http://localhost:8000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
