// Leaflet's ES module build has the package's API; bundled from it rather than from the UMD main
// file, the unused parts fall away (about 1.5 KB compressed on opening the map).
declare module 'leaflet/dist/leaflet-src.esm.js' {
  export * from 'leaflet';
}
