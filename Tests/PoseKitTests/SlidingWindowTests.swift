import PoseKit
import Testing

struct SlidingWindowTests {
    @Test func emitsFirstWindowAfterLengthThenEveryStride() {
        var window = SlidingWindow<Int>(length: 4, stride: 2)
        var windows: [[Int]] = []
        for value in 1...10 { if let w = window.append(value) { windows.append(w) } }
        #expect(windows == [[1, 2, 3, 4], [3, 4, 5, 6], [5, 6, 7, 8], [7, 8, 9, 10]])
    }

    @Test(arguments: [(3, 1), (3, 3), (2, 5), (1, 1), (5, 2)])
    func windowsMatchAReferenceSlicing(length: Int, stride: Int) {
        var window = SlidingWindow<Int>(length: length, stride: stride)
        let input = Array(0..<23)
        var windows: [[Int]] = []
        for value in input { if let w = window.append(value) { windows.append(w) } }
        let expected = Swift.stride(from: length, through: input.count, by: stride).map {
            Array(input[($0 - length)..<$0])
        }
        #expect(windows == expected)
    }

    @Test func resetStartsAgainAfterLengthElements() {
        var window = SlidingWindow<Int>(length: 3, stride: 1)
        for value in 0..<5 { _ = window.append(value) }
        #expect(window.elements == [2, 3, 4])
        window.reset()
        let results = [window.append(10), window.append(11), window.append(12)]
        #expect(results == [nil, nil, [10, 11, 12]])
    }

    @Test func windowsDoNotChangeWhenMoreElementsArrive() {
        var window = SlidingWindow<Int>(length: 2, stride: 2)
        _ = window.append(1)
        let first = window.append(2)
        _ = window.append(3)
        _ = window.append(4)
        #expect(first == [1, 2])
    }
}
