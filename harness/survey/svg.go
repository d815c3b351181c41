package survey

import (
	"fmt"
	"io"

	svg "github.com/ajstarks/svgo"
)

// Colours of the cell states, as JSONTestSuite's table colours its results:
// green agrees, red diverges, grey cannot even express the case.
var stateColour = map[State]string{
	StateEmpty:     "#ffffff",
	StateAgrees:    "#4caf50",
	StatePartial:   "#a5d6a7",
	StateNoExpress: "#bdbdbd",
	StateDiverges:  "#e53935",
}

// Layout of the picture, in pixels.
const (
	cellW, cellH = 58, 22
	labelW       = 120 // the class names on the left
	headerH      = 230 // the library names and their contracts on top, rotated
	legendH      = 70
)

// WriteSVG draws the matrix: one row per edge class, one column per
// library (named with the contract it is judged by), one coloured cell each with the share of its cases that diverge
// (or cannot be expressed), and a legend.
func WriteSVG(w io.Writer, r *Result) {
	cols, rows := len(r.Libraries), len(r.Classes)
	width, height := labelW+cols*cellW+110, headerH+rows*cellH+legendH // room for the last name, slanted right
	c := svg.New(w)
	c.Start(width, height)
	c.Title(fmt.Sprintf("canonical JSON libraries against the reference of the contract each claims, %d cases each, seed %d", r.Cases, r.Seed))
	c.Rect(0, 0, width, height, "fill:#ffffff")
	c.Gstyle("font-family:Helvetica,Arial,sans-serif;font-size:11px")
	for j, lib := range r.Libraries {
		x, y := labelW+j*cellW+cellW/2, headerH-6
		c.Text(x, y, lib.Name+" · "+lib.Contract, "text-anchor:start;font-weight:bold", fmt.Sprintf(`transform="rotate(-60 %d %d)"`, x, y))
	}
	for i, class := range r.Classes {
		y := headerH + i*cellH
		c.Text(labelW-6, y+cellH*2/3, class, "text-anchor:end")
		for j, lib := range r.Libraries {
			drawCell(c, labelW+j*cellW, y, lib, i)
		}
	}
	drawLegend(c, headerH+rows*cellH+20)
	c.Gend()
	c.End()
}

// drawCell draws one library's cell of class i.
func drawCell(c *svg.SVG, x, y int, lib *Library, i int) {
	state, label := StateEmpty, "n/a"
	if lib.Error != "" && lib.Cases == 0 {
		label = "error"
	} else if i < len(lib.Cells) {
		cell := lib.Cells[i]
		state, label = cell.State(), cellLabel(cell)
	}
	c.Rect(x, y, cellW-2, cellH-2, "fill:"+stateColour[state]+";stroke:#ffffff")
	c.Text(x+cellW/2-1, y+cellH*2/3, label, "text-anchor:middle;font-size:10px;fill:"+textColour(state))
}

// cellLabel is the share the cell's colour is about.
func cellLabel(cell *Cell) string {
	n := cell.Verdict()
	switch cell.State() {
	case StateEmpty:
		return "n/a"
	case StateDiverges:
		return percent(n.Diverge, n.Cases)
	case StateNoExpress, StatePartial:
		return "∅ " + percent(n.Inexpressible, n.Cases)
	}
	return "ok"
}

func textColour(s State) string {
	if s == StateDiverges {
		return "#ffffff"
	}
	return "#212121"
}

// drawLegend explains the colours below the matrix.
func drawLegend(c *svg.SVG, y int) {
	x := 10
	for _, s := range []State{StateAgrees, StatePartial, StateNoExpress, StateDiverges} {
		c.Rect(x, y, 14, 14, "fill:"+stateColour[s])
		c.Text(x+18, y+11, string(s))
		x += 30 + 7*len(s)
	}
	c.Text(10, y+34, "the figure in a cell is the share of that class's cases that diverge, or (∅) that the library's value model cannot hold")
}

// percent is n/total as a rounded percentage, "<1%" for a few.
func percent(n, total int) string {
	if total == 0 {
		return "n/a"
	}
	p := 100 * float64(n) / float64(total)
	switch {
	case n > 0 && p < 1:
		return "<1%"
	case n < total && p > 99:
		return ">99%"
	}
	return fmt.Sprintf("%.0f%%", p)
}
