/**
 * Draws a receipt's map view with Leaflet. Imported only when the tracking map opens, so Leaflet's
 * script and stylesheet load then and never with the receipts page.
 */
// As a URL, not a CSS import: Astro would put an imported stylesheet on the page that imports the island.
import leafletStylesheetUrl from 'leaflet/dist/leaflet.css?url';
import {
  circleMarker,
  control,
  divIcon,
  icon,
  latLngBounds,
  map as leafletMap,
  marker,
  polyline,
  tileLayer,
  type Map as LeafletMap,
} from 'leaflet/dist/leaflet-src.esm.js';
import { m } from '~/paraglide/messages.js';
import { statusLabel } from '~/shared/format';
import type { PlaceView, RouteView, MapView } from '~/shared/map-view';

export interface TileSource {
  /** Leaflet URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
  url: string;
  /** HTML from the operator's configuration (MAP_TILE_ATTRIBUTION), shown in the map's corner. */
  attribution: string;
}

const ROUTE_COLOR = '#1d4ed8';
const VEHICLE_SIZE = 32;
const VEHICLE_NAMES = { plane: m.map_plane, ship: m.map_ship } as const;

const warehouseIcon = icon({
  iconUrl: '/map/warehouse.svg',
  iconSize: [32, 42],
  iconAnchor: [16, 41],
  popupAnchor: [0, -36],
});

/** Settles once Leaflet's stylesheet has loaded; the map is drawn after it, so it never shows unstyled. */
export const stylesheetLoaded = new Promise<void>((resolve, reject) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = leafletStylesheetUrl;
  link.onload = () => resolve();
  link.onerror = () => reject(new Error('The map stylesheet could not be loaded'));
  document.head.append(link);
});

/**
 * Shows `view` in `container`; the returned function stops the animation and removes the map.
 * `onTiles(false)` when a tile fails before any has arrived (the tile server is out of reach),
 * `onTiles(true)` once one arrives.
 */
export function drawMapView(
  container: HTMLElement,
  view: MapView,
  tiles: TileSource,
  onTiles: (shown: boolean) => void = () => {},
): () => void {
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const map = leafletMap(container, {
    zoomControl: false,
    zoomAnimation: !reducedMotion,
    fadeAnimation: !reducedMotion,
    markerZoomAnimation: !reducedMotion,
  });
  // Leaflet's own zoom buttons are titled in English.
  control.zoom({ zoomInTitle: m.map_zoom_in(), zoomOutTitle: m.map_zoom_out() }).addTo(map);
  let tileShown = false;
  tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 })
    .on('tileload', () => {
      if (!tileShown) onTiles((tileShown = true));
    })
    .on('tileerror', () => {
      if (!tileShown) onTiles(false);
    })
    .addTo(map);
  if (view.kind === 'place') {
    drawPlace(map, view);
    return () => map.remove();
  }
  const stopAnimation = drawRoute(map, view, reducedMotion);
  return () => {
    stopAnimation();
    map.remove();
  };
}

function drawPlace(map: LeafletMap, { location, zoom, popup }: PlaceView) {
  map.setView(location, zoom);
  const pin = marker(location, {
    icon: warehouseIcon,
    alt: location.name,
    title: location.name,
    keyboard: Boolean(popup),
  }).addTo(map);
  if (popup) pin.bindPopup(popupContent(popup)).openPopup();
}

/** Built from DOM nodes, not HTML: status and transport are provider data. */
function popupContent({ status, transport }: NonNullable<PlaceView['popup']>): HTMLElement {
  const content = document.createElement('div');
  for (const [label, value] of [
    [m.map_status(), statusLabel(status)],
    [m.map_transport(), transport],
  ]) {
    const line = document.createElement('div');
    const name = document.createElement('strong');
    name.textContent = `${label}: `;
    line.append(name, value || '—');
    content.append(line);
  }
  return content;
}

/** The dashed line and its vehicle moving along it once over `durationMs`; returns the animation's stop. */
function drawRoute(
  map: LeafletMap,
  { from, to, zoom, vehicle, durationMs }: RouteView,
  reducedMotion: boolean,
): () => void {
  map.fitBounds(latLngBounds([from, to]), { maxZoom: zoom, padding: [24, 24], animate: false });
  polyline([from, to], {
    color: ROUTE_COLOR,
    weight: 3,
    dashArray: '8 8',
    interactive: false,
  }).addTo(map);
  for (const end of [from, to]) {
    circleMarker(end, {
      radius: 5,
      color: ROUTE_COLOR,
      fillColor: '#fff',
      fillOpacity: 1,
      weight: 2,
    })
      .bindTooltip(end.name)
      .addTo(map);
  }

  // Straight on the screen (Mercator), like the drawn line: interpolate in projected space.
  const start = map.project(from, zoom);
  const end = map.project(to, zoom);
  const heading = end.subtract(start);
  const image = document.createElement('img');
  image.src = `/map/${vehicle}.svg`;
  image.alt = VEHICLE_NAMES[vehicle]();
  image.title = `${from.name} → ${to.name}`;
  image.width = VEHICLE_SIZE;
  image.height = VEHICLE_SIZE;
  // The plane is drawn nose up and turns to its heading; the ship is drawn bow right and only faces west or east.
  image.style.transform =
    vehicle === 'plane'
      ? `rotate(${(Math.atan2(heading.x, -heading.y) * 180) / Math.PI}deg)`
      : heading.x < 0
        ? 'scaleX(-1)'
        : '';
  const half = VEHICLE_SIZE / 2;
  const mover = marker(reducedMotion ? to : from, {
    icon: divIcon({
      html: image,
      className: '',
      iconSize: [VEHICLE_SIZE, VEHICLE_SIZE],
      iconAnchor: [half, half],
    }),
    interactive: false,
    keyboard: false,
  }).addTo(map);
  if (reducedMotion) return () => {};

  let frame = 0;
  let startTime: number | undefined;
  const step = (now: number) => {
    startTime ??= now;
    const progress = Math.min((now - startTime) / durationMs, 1);
    mover.setLatLng(map.unproject(start.add(heading.multiplyBy(progress)), zoom));
    if (progress < 1) frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}
