import PoseKit
import Testing

struct SlidingWindowTests {
    @Test func emitsFirstWindowAfterLengthThenEveryStride() {
        var window = SlidingWindow<Int>(length: 4, stride: 2)
        var windows: [[Int]] = []
        for value in 1...10 { if let w = window.append(value) { windows.append(w) } }
        #expect(windows == [[1, 2, 3, 4], [3, 4, 5, 6], [5, 6, 7, 8], [7, 8, 9, 10]])
    }
}
