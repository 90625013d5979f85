"""What the figure tests check on every figure, defined once: the texts a figure draws, those
that poke out of the canvas, and underscores printed literally (matplotlib is imported by the
caller, which skips without the plot extra)."""

import re


def drawn_text_boxes(fig):
    """``(what, window extent)`` of every text the figure draws: titles, texts, legends,
    figure texts, and the tick labels and labels of the axes that show their axis."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    for ax in fig.axes:
        texts = [ax.title, *ax.texts]
        boxes += [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text()]
        if ax.get_legend() is not None:
            boxes.append(("legend", ax.get_legend().get_window_extent(renderer)))
        if ax.axison:
            boxes += [(f"axis of {ax.get_label() or ax}", axis.get_tightbbox(renderer))
                      for axis in (ax.xaxis, ax.yaxis)]
    boxes += [(t.get_text(), t.get_window_extent(renderer)) for t in fig.texts if t.get_text()]
    boxes += [("figure legend", legend.get_window_extent(renderer)) for legend in fig.legends]
    return [(what, box) for what, box in boxes if box is not None and box.width > 0]


def outside_canvas(fig):
    """The texts whose box pokes out of the canvas (by more than half a pixel)."""
    canvas = fig.bbox
    return [what for what, box in drawn_text_boxes(fig)
            if box.x0 < canvas.x0 - 0.5 or box.y0 < canvas.y0 - 0.5
            or box.x1 > canvas.x1 + 0.5 or box.y1 > canvas.y1 + 0.5]


def literal_subscripts(fig):
    """Texts with an underscore outside ``$...$``: a subscript matplotlib prints as ``_``."""
    import matplotlib.text

    fig.canvas.draw()
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    return [t for t in texts if "_" in re.sub(r"\$[^$]*\$", "", t)]
