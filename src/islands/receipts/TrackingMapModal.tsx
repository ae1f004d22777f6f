/**
 * The 'Tracking Details' modal: a receipt on the tracking map. The default export, so the
 * receipts island can load it with React.lazy; Leaflet itself loads only once the modal is open.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { m } from '~/paraglide/messages.js';
import { statusLabel, transportLabel } from '~/shared/format';
import { receiptMapView } from '~/shared/map-view';
import type { Receipt } from '~/shared/receipts';
import { Modal } from '../common/Modal';

export type TrackedReceipt = Pick<Receipt, 'number' | 'status' | 'modeOfTransportation' | 'origin'>;

export interface TrackingMapModalProps {
  /** The receipt to show; null renders nothing. */
  receipt: TrackedReceipt | null;
  /** Leaflet tile URL template (server config MAP_TILE_URL). */
  tileUrl: string;
  /** Attribution HTML for the tiles (server config MAP_TILE_ATTRIBUTION). */
  tileAttribution: string;
  onClose: () => void;
}

export default function TrackingMapModal({ receipt, ...props }: TrackingMapModalProps) {
  return receipt && <TrackingDetails receipt={receipt} {...props} />;
}

function TrackingDetails({
  receipt,
  tileUrl,
  tileAttribution,
  onClose,
}: TrackingMapModalProps & { receipt: TrackedReceipt }) {
  return (
    <Modal title={m.map_title()} onClose={onClose} wide>
      <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="opacity-70">{m.map_receipt()}</dt>
        <dd className="font-medium">{receipt.number}</dd>
        <dt className="opacity-70">{m.map_status()}</dt>
        <dd>{statusLabel(receipt.status)}</dd>
        <dt className="opacity-70">{m.map_transport_mode()}</dt>
        <dd>{transportLabel(receipt.modeOfTransportation)}</dd>
      </dl>
      <TrackingMap receipt={receipt} tileUrl={tileUrl} tileAttribution={tileAttribution} />
      {/* How to move the map, as the reader's pointer does it: a finger, or a mouse. */}
      <p className="mt-2 text-sm opacity-70 pointer-coarse:hidden">{m.map_hint()}</p>
      <p className="mt-2 hidden text-sm opacity-70 pointer-coarse:block">{m.map_hint_touch()}</p>
    </Modal>
  );
}

type MapState = 'loading' | 'ready' | 'failed';

function TrackingMap({
  receipt,
  tileUrl,
  tileAttribution,
}: Pick<TrackingMapModalProps, 'tileUrl' | 'tileAttribution'> & { receipt: TrackedReceipt }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<MapState>('loading');
  const [tilesMissing, setTilesMissing] = useState(false);
  const view = useMemo(() => receiptMapView(receipt), [receipt]);

  useEffect(() => {
    let removeMap: (() => void) | undefined;
    let cancelled = false;
    import('./tracking-map')
      .then((module) => module.stylesheetLoaded.then(() => module.drawMapView))
      .then(
        (drawMapView) => {
          if (cancelled || !containerRef.current) return;
          removeMap = drawMapView(
            containerRef.current,
            view,
            { url: tileUrl, attribution: tileAttribution },
            (shown) => !cancelled && setTilesMissing(!shown),
          );
          setState('ready');
        },
        () => !cancelled && setState('failed'),
      );
    return () => {
      cancelled = true;
      removeMap?.();
    };
  }, [view, tileUrl, tileAttribution]);

  return (
    <div className="relative isolate h-80 overflow-hidden rounded-box bg-base-200 sm:h-96">
      <div ref={containerRef} className="size-full" />
      {/* The route and its pins are drawn without the tiles: say why the land is plain grey, clear
          of the zoom buttons (top left). */}
      {state === 'ready' && tilesMissing && (
        <p
          className="absolute top-2 right-2 left-14 z-[1000] rounded-box bg-base-100/95 px-3 py-2 text-center text-sm"
          role="status"
          data-tiles-failed
        >
          {m.map_tiles_failed()}
        </p>
      )}
      {state !== 'ready' && (
        <div className="absolute inset-0 grid place-items-center text-sm" role="status">
          {state === 'loading' ? (
            <span className="loading loading-spinner" aria-label={m.map_loading()} />
          ) : (
            m.map_failed()
          )}
        </div>
      )}
    </div>
  );
}
